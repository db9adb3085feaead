//! The quiz's two shelves of question builders. The web app downloads
//! Part 1's questions with the quiz itself, and the later chapters' (Parts
//! 2 to 8 and the GPU chapter) in a chunk of their own when one of them is
//! opened (`src/chunks/quiz_book/`), so that opening the quiz does not
//! download every chapter's builders.
//!
//! Why two shelves and not one per chapter: each split module multiplies
//! the shared chunks (code two modules use), and each shared chunk costs
//! the first load a loader line; three shelves (chips, scale, models) cost
//! the first load 0.8 KB, over its limit (docs/build.md §5).

use super::{bank, chapter_of, Question};

/// A shelf of question builders that travel together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shelf {
    /// Part 1 (rooflines) and Roofline Lab's extras: with the quiz itself.
    Roofline,
    /// The later chapters: Parts 2 to 8 and Part 12 (GPUs).
    Book,
}

/// The shelf that builds question `id` (Part 1's for an id of no chapter).
pub fn shelf_of(id: &str) -> Shelf {
    if chapter_of(id) == "p1" {
        Shelf::Roofline
    } else {
        Shelf::Book
    }
}

/// The bank's id and title of question `id`.
fn titled(id: &str) -> Option<(&'static str, &'static str)> {
    bank::BANK.iter().find(|(i, _)| *i == id).copied()
}

/// Question `id` of [`Shelf::Roofline`] with the numbers of `seed` (0: the
/// book's); `None` if the shelf has no such question.
pub fn roofline(id: &str, seed: u64) -> Option<Question> {
    let (id, title) = titled(id)?;
    bank::build(bank::roofline, id, title, seed)
}

/// Question `id` of [`Shelf::Book`], likewise.
pub fn book(id: &str, seed: u64) -> Option<Question> {
    let (id, title) = titled(id)?;
    bank::build(bank::book, id, title, seed)
}

/// Question `id` with the numbers of `seed`, from whichever shelf holds it
/// (native code and tests; the web app calls each shelf's own function).
pub(super) fn any(id: &str, seed: u64) -> Option<Question> {
    match shelf_of(id) {
        Shelf::Roofline => roofline(id, seed),
        Shelf::Book => book(id, seed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every question is on the shelf its chapter names, and on no other:
    /// a row put on the wrong shelf in the bank's table fails here.
    #[test]
    fn each_question_is_built_by_its_shelf_alone() {
        type Build = fn(&str, u64) -> Option<Question>;
        let fns: [(Shelf, Build); 2] = [(Shelf::Roofline, roofline), (Shelf::Book, book)];
        for &(id, _) in bank::BANK {
            for (shelf, f) in fns {
                assert_eq!(
                    f(id, 0).is_some(),
                    shelf == shelf_of(id),
                    "{id} on {shelf:?}"
                );
            }
        }
    }
}
