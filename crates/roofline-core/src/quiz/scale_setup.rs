//! What a question on a mesh of chips (Parts 3, 5 and 6) opens: the Scale
//! page with the question's numbers, a part's own state where it differs
//! (another collective, another strategy).

use crate::pages::{AppState, View};
use crate::scale::ScaleState;

use super::Question;

/// The Scale page's state a question opens with.
#[derive(Debug, Clone, PartialEq)]
pub struct ScaleSetup {
    /// The page's state for the question.
    pub state: ScaleState,
    /// The sharded matmul to show, in the calculator's `op` with its axes
    /// (`bf16[B,D]*bf16[D_X,F]->bf16[B,F]`); `None` keeps the setup's op.
    pub op: Option<String>,
    /// A part's own state, by part id, where it differs from the question's.
    pub parts: Vec<(String, ScaleState)>,
}

impl ScaleSetup {
    /// A setup with the same state for every part.
    pub fn new(state: ScaleState) -> ScaleSetup {
        ScaleSetup {
            state,
            op: None,
            parts: Vec::new(),
        }
    }

    /// The state for part `part_id`: its own, else the question's.
    pub fn state_for(&self, part_id: &str) -> &ScaleState {
        self.parts
            .iter()
            .find(|(p, _)| p == part_id)
            .map_or(&self.state, |(_, s)| s)
    }

    /// The Scale page for part `part_id` of `q`: the part's calculator
    /// setup (chip and sizes), the sharded op, the question's model.
    pub(super) fn opening(&self, q: &Question, part_id: &str, quiz: String) -> AppState {
        let mut calc = q.calc_for(part_id).calc_state();
        if let Some(op) = &self.op {
            // In the calculator's notation, which keeps the axes (`D_X`
            // is D split over X), as the link writes it back.
            calc.op = crate::op::Operation::parse(op).map_or_else(|_| op.clone(), |o| o.notation());
        }
        AppState {
            view: View::Scale,
            calc,
            model: q
                .model
                .as_ref()
                .map(crate::model::state_text)
                .unwrap_or_default(),
            scale: crate::scale::state_text(self.state_for(part_id)),
            quiz,
            ..AppState::default()
        }
    }
}
