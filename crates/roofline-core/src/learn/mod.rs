//! The Learn page: the chapter in eight short steps, then a ninth that takes
//! it to a whole model and a tenth that takes step 8's split to Part 3's
//! AllReduce ([`STEP_COUNT`]), each with a live figure and one or two
//! controls.
//!
//! A step is a calculator state built from the controls' values
//! ([`Step::state`]), evaluated by [`crate::calc::evaluate`] like the
//! calculator's own, and a few paragraphs worded from that evaluation
//! ([`step_view`]). Every number in the paragraphs is computed; the texts
//! hold formulas but no catalogue number. "Open in the calculator" opens
//! the step's state.

pub(crate) mod link;
mod progress;
mod steps;
mod words;
mod words_collective;

pub use progress::{LearnProgress, LEARN_PROGRESS_KEY};

use crate::calc::{evaluate, CalcInput, CalcView};
use crate::state::{CalcState, ChartScale};
use crate::CoreError;

/// How many steps the Learn page has (links accept `step=1` to this).
/// A test keeps it equal to the length of [`STEPS`].
pub const STEP_COUNT: u32 = 10;

/// Which chart a step draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Figure {
    /// The roofline chart of the step's state (its lines, roof and markers).
    Roofline,
    /// The batch-size chart of the step's state and pairs.
    Batch,
}

/// How a control is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ControlKind {
    /// A range input over the options, in order.
    Slider,
    /// A select listing the options by name.
    Select,
}

/// One control of a step: a choice among a few options.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Control {
    /// A stable key (`data-testid="learn-control-KEY"` in the app).
    pub key: &'static str,
    /// The label shown beside it.
    pub label: &'static str,
    /// Slider or select.
    pub kind: ControlKind,
    /// The values the step is built from, one per option.
    pub values: &'static [f64],
    /// Each option's name; empty when the values are shown as numbers.
    pub names: &'static [&'static str],
    /// The option chosen when the step opens.
    pub default: usize,
}

impl Control {
    /// How many options there are.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether there are no options (never, for the steps' controls).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The name of option `i` (its number when the control has no names).
    pub fn option_label(&self, i: usize) -> String {
        let i = i.min(self.len().saturating_sub(1));
        match self.names.get(i) {
            Some(n) => n.to_string(),
            None => self
                .values
                .get(i)
                .map_or_else(String::new, |v| crate::format::sig(*v, 6)),
        }
    }

    /// The value of option `i`, clamped to the options.
    pub fn value(&self, i: usize) -> f64 {
        let i = i.min(self.len().saturating_sub(1));
        self.values.get(i).copied().unwrap_or(1.0)
    }
}

/// A step's words: its paragraphs from the evaluated state, the controls'
/// values and the roofline's axes.
type Words = fn(&CalcView, &[f64], ChartScale) -> Result<Vec<String>, CoreError>;

/// One step of the Learn page.
pub struct Step {
    /// The step's title.
    pub title: &'static str,
    /// Its controls (one or two).
    pub controls: &'static [Control],
    /// The chart it draws.
    pub figure: Figure,
    /// Whether it offers the roofline's "Log axes" switch.
    pub axes_switch: bool,
    /// The calculator state for the controls' values (one per control).
    build: fn(&[f64]) -> Result<CalcState, CoreError>,
    /// The paragraphs, worded from the evaluated state, the values and the
    /// roofline's axes (linear only where [`Step::axes_switch`] offers it).
    words: Words,
}

impl Step {
    /// The values of `choices` (one option index per control; missing ones
    /// take the control's default, out-of-range ones are clamped).
    pub fn values(&self, choices: &[usize]) -> Vec<f64> {
        self.controls
            .iter()
            .enumerate()
            .map(|(i, c)| c.value(choices.get(i).copied().unwrap_or(c.default)))
            .collect()
    }

    /// The default option of each control.
    pub fn defaults(&self) -> Vec<usize> {
        self.controls.iter().map(|c| c.default).collect()
    }

    /// The calculator state the step shows for `choices`.
    pub fn state(&self, choices: &[usize]) -> Result<CalcState, CoreError> {
        (self.build)(&self.values(choices))
    }
}

/// The ten steps: the chapter's eight in its order, a whole model, Part 3's AllReduce.
pub use steps::STEPS;

/// What the Learn page shows for one step.
#[derive(Debug, Clone, PartialEq)]
pub struct StepView {
    /// The step's number, from 1.
    pub number: u32,
    /// Its title.
    pub title: &'static str,
    /// Its paragraphs, every number computed.
    pub paragraphs: Vec<String>,
    /// The calculator state it draws, and that "Open in the calculator" opens.
    pub state: CalcState,
    /// The state evaluated, for the figure.
    pub view: CalcView,
    /// Which chart to draw.
    pub figure: Figure,
}

/// The step numbered `number` (from 1), or `None` out of range.
pub fn step(number: u32) -> Option<&'static Step> {
    let i = usize::try_from(number.checked_sub(1)?).ok()?;
    STEPS.get(i)
}

/// Builds step `number` (from 1) for `choices` (an option index per
/// control), on the chapter's log axes. Errors name what could not be
/// computed.
pub fn step_view(number: u32, choices: &[usize]) -> Result<StepView, CoreError> {
    step_view_on(number, choices, ChartScale::Log)
}

/// [`step_view`] with the roofline on `scale`: a step that offers the
/// "Log axes" switch words its figure for the axes shown, and its state
/// (the link "Open in the calculator" opens) keeps them; the other steps
/// stay on log axes.
pub fn step_view_on(
    number: u32,
    choices: &[usize],
    scale: ChartScale,
) -> Result<StepView, CoreError> {
    let s = step(number).ok_or_else(|| {
        CoreError::Invalid(format!(
            "there is no step {number}; steps run from 1 to {STEP_COUNT}"
        ))
    })?;
    let values = s.values(choices);
    let scale = if s.axes_switch {
        scale
    } else {
        ChartScale::Log
    };
    let mut state = (s.build)(&values)?;
    state.roofline_scale = scale;
    let view = evaluate(&CalcInput::from_state(&state));
    if view.analysis.is_none() {
        return Err(CoreError::Invalid(
            view.error
                .clone()
                .unwrap_or_else(|| format!("step {number} has no result")),
        ));
    }
    let paragraphs = (s.words)(&view, &values, scale)?;
    Ok(StepView {
        number,
        title: s.title,
        paragraphs,
        state,
        view,
        figure: s.figure,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    #[test]
    fn step_count_matches_the_steps() {
        assert_eq!(STEPS.len(), STEP_COUNT as usize);
        assert!(step(0).is_none());
        assert!(step(STEP_COUNT + 1).is_none());
        assert!(step_view(0, &[]).is_err());
    }

    #[test]
    fn every_option_of_every_step_evaluates_and_reads_cleanly() {
        for n in 1..=STEP_COUNT {
            let s = step(n).unwrap();
            assert!(!s.controls.is_empty() && s.controls.len() <= 2, "step {n}");
            let first = s.controls[0].len();
            let second = s.controls.get(1).map_or(1, Control::len);
            for i in 0..first {
                for j in 0..second {
                    let v = step_view(n, &[i, j])
                        .unwrap_or_else(|e| panic!("step {n} option {i},{j}: {e}"));
                    assert!(v.paragraphs.len() >= 2, "step {n}");
                    for p in &v.paragraphs {
                        let words: Vec<&str> = p.split(|c: char| !c.is_alphanumeric()).collect();
                        assert!(
                            !words.contains(&"NaN") && !words.contains(&"inf") && !p.contains('—'),
                            "step {n}: {p}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn choices_are_clamped_and_defaulted() {
        let s = step(1).unwrap();
        assert_eq!(
            s.values(&[]),
            vec![s.controls[0].value(s.controls[0].default)]
        );
        assert_eq!(
            s.values(&[999]),
            vec![*s.controls[0].values.last().unwrap()]
        );
    }
}
