//! A wrapped future is a future, and a wrapped stream a stream, polled only
//! on the owner's thread.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures_core::Stream;

use crate::SendWrapper;

impl<T> SendWrapper<T> {
    /// The pinned value. Panics off the owner's thread.
    #[track_caller]
    fn pinned(self: Pin<&mut Self>) -> Pin<&mut T> {
        self.check("polled");
        // SAFETY: the value is structurally pinned: it is never moved out of
        // a pinned wrapper (`take` needs the wrapper by value, which a pin
        // forbids unless `Self: Unpin`, and then `T` is too), and `Drop`
        // drops it in place.
        unsafe { self.map_unchecked_mut(|w| &mut *w.value) }
    }
}

impl<F: Future> Future for SendWrapper<F> {
    type Output = F::Output;

    /// Panics off the owner's thread.
    #[track_caller]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        self.pinned().poll(cx)
    }
}

impl<S: Stream> Stream for SendWrapper<S> {
    type Item = S::Item;

    /// Panics off the owner's thread.
    #[track_caller]
    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<S::Item>> {
        self.pinned().poll_next(cx)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        if self.valid() {
            self.value.size_hint()
        } else {
            (0, None)
        }
    }
}
