//! AdamW (Loshchilov and Hutter 2019), computed as PyTorch's `torch.optim.AdamW` does
//! (decoupled weight decay first, then the bias-corrected step).

use crate::model::Params;

#[derive(Clone, Debug)]
pub struct AdamW {
    pub lr: f64,
    pub beta1: f64,
    pub beta2: f64,
    pub eps: f64,
    pub weight_decay: f64,
    step: i32,
    m: Params,
    v: Params,
}

impl AdamW {
    /// PyTorch's defaults but the learning rate: β = (0.9, 0.999), ε = 1e-8, decay 0.01.
    pub fn new(params: &Params, lr: f64) -> AdamW {
        AdamW {
            lr,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
            weight_decay: 0.01,
            step: 0,
            m: params.zeros_like(),
            v: params.zeros_like(),
        }
    }

    pub fn step(&mut self, params: &mut Params, grad: &Params) {
        self.step += 1;
        let bc1 = 1.0 - libm::pow(self.beta1, self.step as f64);
        let bc2_sqrt = (1.0 - libm::pow(self.beta2, self.step as f64)).sqrt();
        let step_size = self.lr / bc1;
        let (b1, b2) = (self.beta1, self.beta2);
        let decay = 1.0 - self.lr * self.weight_decay;
        let tensors = params.tensors_mut().into_iter().zip(grad.tensors());
        let moments = self.m.tensors_mut().into_iter().zip(self.v.tensors_mut());
        for ((p, g), (m, v)) in tensors.zip(moments) {
            for i in 0..p.len() {
                p[i] *= decay;
                m[i] = b1 * m[i] + (1.0 - b1) * g[i];
                v[i] = b2 * v[i] + (1.0 - b2) * g[i] * g[i];
                let denom = v[i].sqrt() / bc2_sqrt + self.eps;
                p[i] -= step_size * m[i] / denom;
            }
        }
    }
}
