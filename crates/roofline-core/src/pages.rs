//! The page table: every page of Roofline Lab is one row of [`PAGES`], and
//! its state one field of [`AppState`].
//!
//! A row names the page ([`View`]), its `view=` key in links (and other
//! spellings a link may use), its tab's label and test id, and the wasm
//! chunk that holds it. The app's shell builds the tab bar from the rows;
//! the link codec ([`crate::url`]) reads and writes each page's keys
//! through `AppState::read_pages` and `AppState::write_pages`, in the
//! rows' order. A page's link keys live in its own folder (`calc/link/`,
//! `learn/link.rs`, `quiz/link.rs`, `model/link.rs`); its state there too
//! (the calculator's and the quiz's are still in `crate::state`).
//!
//! Adding a page: a variant of [`View`], a row of [`PAGES`], a field of
//! [`AppState`] and its two lines in `read_pages` and `write_pages`, all in
//! this file (ARCHITECTURE.md, "Recipes"). The tests below check that the
//! table and the enum agree.

use crate::query::keys;
use crate::query::notice::Notes;
use crate::query::LinkOut;
use crate::query::Params;
use crate::state::CalcState;

/// Which page is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum View {
    /// The calculator (the default).
    #[default]
    Calculator,
    /// The chapter in steps, with live figures.
    Learn,
    /// The practice questions.
    Quiz,
    /// A whole transformer on the roofline.
    Model,
    /// Meshes, collectives, sharded matmuls and training plans.
    Scale,
}

/// One page: what the shell and the link need to know of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    /// The page.
    pub view: View,
    /// Its `view=` value in links.
    pub key: &'static str,
    /// Its tab's test id: `tab-` and the key (a test checks it).
    pub testid: &'static str,
    /// Other values a link may give for it (read case-insensitively).
    pub aliases: &'static [&'static str],
    /// The label of its tab.
    pub label: &'static str,
    /// The wasm chunk that holds the page (a row of `src/chunks/chunks.json`),
    /// or `None` for a page of the first load.
    pub chunk: Option<&'static str>,
}

/// Every page, in the order of the tabs and of the link's keys.
pub const PAGES: [Page; 5] = [
    Page {
        view: View::Calculator,
        key: "calc",
        testid: "tab-calc",
        aliases: &["calculator"],
        label: "Calculator",
        chunk: None,
    },
    Page {
        view: View::Learn,
        key: "learn",
        testid: "tab-learn",
        aliases: &[],
        label: "Learn",
        chunk: Some("learn"),
    },
    Page {
        view: View::Quiz,
        key: "quiz",
        testid: "tab-quiz",
        aliases: &[],
        label: "Quiz",
        chunk: Some("quiz"),
    },
    Page {
        view: View::Model,
        key: "model",
        testid: "tab-model",
        aliases: &[],
        label: "Model",
        chunk: Some("model"),
    },
    Page {
        view: View::Scale,
        key: "scale",
        testid: "tab-scale",
        aliases: &[],
        label: "Scale",
        chunk: Some("scale"),
    },
];

impl View {
    /// The page's row of [`PAGES`].
    pub fn page(self) -> &'static Page {
        PAGES.iter().find(|p| p.view == self).unwrap_or(&PAGES[0])
    }

    /// The key used in links: `calc`, `learn`, `quiz`, `model` or `scale`.
    pub fn key(self) -> &'static str {
        self.page().key
    }

    /// Parses a key or an alias (`calc`, `calculator`, `quiz`, ...),
    /// case-insensitively.
    pub fn from_key(s: &str) -> Option<View> {
        let s = s.trim().to_ascii_lowercase();
        PAGES
            .iter()
            .find(|p| p.key == s || p.aliases.contains(&s.as_str()))
            .map(|p| p.view)
    }
}

/// The whole state of the app: the page shown and each page's own state.
#[derive(Debug, Clone, PartialEq)]
pub struct AppState {
    /// The page shown.
    pub view: View,
    /// The calculator.
    pub calc: CalcState,
    /// Measured kernels on the calculator's roofline, in the link's compact
    /// form ([`crate::points::compact`]); empty for none.
    pub points: String,
    /// The Learn page's open step, from 1 to [`crate::learn::STEP_COUNT`].
    pub step: u32,
    /// The practice questions: the quiz's keys (`q`, `part`, `seed`) in the
    /// text of a link ([`crate::quiz::state_text`]; empty for the first
    /// question's first part at seed 0), read into
    /// [`QuizState`](crate::state::QuizState) by the quiz's chunk
    /// ([`crate::quiz::read_query`]), as the Model and Scale pages do.
    pub quiz: String,
    /// The Model page (its chip and chip count are the calculator's): its
    /// keys in the text of a link ([`crate::model::state_text`]; empty
    /// for the defaults), read into [`crate::model::ModelState`] by the
    /// Model and Scale chunks ([`crate::query::keys`]).
    pub model: String,
    /// The Scale page's keys, in the text of a link
    /// ([`crate::scale::state_text`]; empty for the defaults): the page's
    /// state ([`crate::scale::ScaleState`]) is read from it in the Scale
    /// chunk, so the first load holds a text, not the state and its code.
    /// Its chip, operation and sizes are the calculator's, its model the
    /// Model page's.
    pub scale: String,
}

impl Default for AppState {
    fn default() -> Self {
        AppState {
            view: View::default(),
            calc: CalcState::default(),
            points: String::new(),
            step: 1,
            quiz: String::new(),
            model: String::new(),
            scale: String::new(),
        }
    }
}

impl AppState {
    /// Reads every page's keys from a link (all but `v` and `view`), in the
    /// rows' order: each page's own reader, in its folder (`pts`, the
    /// calculator's measured kernels, is kept as written).
    /// `questions` lists the quiz's question ids with their parts (see
    /// [`crate::url::decode_with`]).
    pub(crate) fn read_pages(
        view: View,
        p: &mut Params,
        n: &mut Notes,
        questions: &[(&str, u32)],
    ) -> AppState {
        AppState {
            view,
            calc: crate::calc::link::read(p, n),
            // Kept as written: the measurements panel reads the kernels
            // (`points::compact::decode`) and lists each item that is not one.
            points: p.take("pts").unwrap_or_default(),
            step: crate::learn::link::read(p, n),
            quiz: keys::text(
                &crate::quiz::link::read(p, n, questions),
                crate::quiz::link::write,
            ),
            model: keys::take(p, n, crate::model::link::read, crate::model::link::write),
            scale: keys::take(p, n, crate::scale::link::read, crate::scale::link::write),
        }
    }

    /// Writes every page's keys that differ from their defaults, in the
    /// rows' order (after `v` and `view`).
    pub(crate) fn write_pages(&self, out: &mut LinkOut) {
        crate::calc::link::write(&self.calc, out);
        if !self.points.is_empty() {
            out.put("pts", self.points.clone());
        }
        crate::learn::link::write(self.step, out);
        keys::put(
            &self.quiz,
            out,
            |p, n| crate::quiz::link::read(p, n, &[]),
            crate::quiz::link::write,
        );
        keys::put(
            &self.model,
            out,
            crate::model::link::read,
            crate::model::link::write,
        );
        keys::put(
            &self.scale,
            out,
            crate::scale::link::read,
            crate::scale::link::write,
        );
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    /// Every variant has exactly one row, and every key reads back.
    #[test]
    fn the_table_and_the_enum_agree() {
        for v in [
            View::Calculator,
            View::Learn,
            View::Quiz,
            View::Model,
            View::Scale,
        ] {
            // A new variant must be added here (the match fails to compile
            // without it) and to PAGES (the count below fails without it).
            match v {
                View::Calculator | View::Learn | View::Quiz | View::Model | View::Scale => {}
            }
            assert_eq!(PAGES.iter().filter(|p| p.view == v).count(), 1, "{v:?}");
            assert_eq!(View::from_key(v.key()), Some(v));
            assert_eq!(v.page().testid, format!("tab-{}", v.key()));
        }
        assert_eq!(View::from_key(" Calculator "), Some(View::Calculator));
        assert_eq!(View::from_key("train"), None);
        assert_eq!(PAGES[0].view, View::default());
    }

    /// The link writes `v`, `view`, then each page's keys in the rows'
    /// order, and reads the same state back; a bad `view` lists the keys.
    #[test]
    fn the_link_follows_the_rows() {
        let mut s = AppState {
            view: View::Model,
            points: "k:1:1e12".to_string(),
            step: 3,
            ..AppState::default()
        };
        s.calc.chips = 2;
        s.quiz = "q=q2".to_string();
        let mut m = crate::model::ModelState::default();
        m.step.batch = 16.0;
        s.model = crate::model::state_text(&m);
        let q = crate::url::encode(&s);
        let keys: Vec<&str> = q.split('&').filter_map(|kv| kv.split('=').next()).collect();
        assert_eq!(keys, ["v", "view", "n", "pts", "step", "q", "b"], "{q}");
        assert_eq!(crate::url::decode(&q).state, s);
        let d = crate::url::decode("view=train");
        assert_eq!(
            d.notices[0].message,
            "view = 'train' is not calc, learn, quiz, model or scale; using calc"
        );
    }
}
