//! `SendWrapper<T>`: a value that is `Send` and `Sync` whatever `T` is,
//! which may only be used (dereferenced, polled, cloned, dropped) on the
//! thread that wrapped it. Leptos wraps every event handler, DOM node and
//! local future in one.
//!
//! This crate stands in for crates.io's `send_wrapper` 0.6 (the workspace's
//! `[patch]`) with the same API. The difference is the check: on wasm built
//! without the `atomics` feature there is one thread, so every use is on
//! the wrapping thread and there is nothing to check. The original asks
//! `std::thread::current()` at each wrap and each use, and that code,
//! inlined at every event handler and node of the page, was 1.7 KB of the
//! app's gzip. Everywhere else (native builds, tests) the owner is the
//! thread's id, checked as the original checks it.
#![deny(unsafe_op_in_unsafe_fn)]

use std::fmt;
use std::mem::{self, ManuallyDrop};
use std::ops::{Deref, DerefMut};

#[cfg(feature = "futures")]
mod futures;

/// The thread a wrapper was made on: nothing to record where there is one.
#[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
#[derive(Clone, Copy)]
struct Owner;

#[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
impl Owner {
    #[inline(always)]
    fn here() -> Owner {
        Owner
    }

    #[inline(always)]
    fn is_here(self) -> bool {
        true
    }
}

/// The thread a wrapper was made on, by id.
#[cfg(not(all(target_family = "wasm", not(target_feature = "atomics"))))]
#[derive(Clone, Copy)]
struct Owner(std::thread::ThreadId);

#[cfg(not(all(target_family = "wasm", not(target_feature = "atomics"))))]
impl Owner {
    fn here() -> Owner {
        Owner(std::thread::current().id())
    }

    fn is_here(self) -> bool {
        self.0 == std::thread::current().id()
    }
}

/// A value that can cross threads but may only be used on the thread that
/// wrapped it: using it elsewhere panics, and so does dropping it elsewhere
/// (unless `T` needs no drop, or the thread is already panicking, when it
/// is leaked).
pub struct SendWrapper<T> {
    value: ManuallyDrop<T>,
    owner: Owner,
}

// SAFETY: the wrapped value is only reached through `with_owner_check`'s
// callers below, which panic on any thread but the owner's; a wrong-thread
// drop leaks instead of dropping. So `T` is never touched off its thread.
unsafe impl<T> Send for SendWrapper<T> {}
// SAFETY: as for `Send`: shared access also goes through the owner check.
unsafe impl<T> Sync for SendWrapper<T> {}

#[cold]
#[inline(never)]
#[track_caller]
fn wrong_thread(what: &str) -> ! {
    panic!("a SendWrapper was {what} on a thread other than the one that made it")
}

impl<T> SendWrapper<T> {
    /// Wraps `value`, owned by the current thread.
    pub fn new(value: T) -> SendWrapper<T> {
        SendWrapper {
            value: ManuallyDrop::new(value),
            owner: Owner::here(),
        }
    }

    /// Whether this thread may use the value (the thread that wrapped it).
    pub fn valid(&self) -> bool {
        self.owner.is_here()
    }

    /// The value, unwrapped. Panics off the owner's thread.
    #[track_caller]
    pub fn take(self) -> T {
        self.check("unwrapped");
        let mut this = ManuallyDrop::new(self);
        // SAFETY: checked to be on the owner's thread; `this` is never
        // dropped, so the value is moved out exactly once.
        unsafe { ManuallyDrop::take(&mut this.value) }
    }

    #[track_caller]
    fn check(&self, what: &str) {
        if !self.valid() {
            wrong_thread(what);
        }
    }
}

impl<T> Deref for SendWrapper<T> {
    type Target = T;

    /// Panics off the owner's thread.
    #[track_caller]
    fn deref(&self) -> &T {
        self.check("used");
        &self.value
    }
}

impl<T> DerefMut for SendWrapper<T> {
    /// Panics off the owner's thread.
    #[track_caller]
    fn deref_mut(&mut self) -> &mut T {
        self.check("used");
        &mut self.value
    }
}

impl<T> Drop for SendWrapper<T> {
    #[track_caller]
    fn drop(&mut self) {
        if mem::needs_drop::<T>() && !self.valid() {
            if std::thread::panicking() {
                return; // leaked: a second panic would abort
            }
            wrong_thread("dropped");
        }
        // SAFETY: on the owner's thread (or `T` has no drop code), and the
        // value was not taken: `take` never lets its wrapper drop.
        unsafe { ManuallyDrop::drop(&mut self.value) }
    }
}

impl<T: Clone> Clone for SendWrapper<T> {
    /// A wrapper of a clone, owned by this thread. Panics off the owner's
    /// thread.
    #[track_caller]
    fn clone(&self) -> SendWrapper<T> {
        self.check("cloned");
        SendWrapper::new(T::clone(&self.value))
    }
}

impl<T: fmt::Debug> fmt::Debug for SendWrapper<T> {
    /// Panics off the owner's thread.
    #[track_caller]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.check("formatted");
        f.debug_tuple("SendWrapper").field(&*self.value).finish()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::SendWrapper;
    use std::rc::Rc;
    use std::thread;

    #[test]
    fn usable_on_its_own_thread() {
        let w = SendWrapper::new(Rc::new(5));
        assert!(w.valid());
        assert_eq!(**w, 5);
        let c = w.clone();
        assert_eq!(Rc::strong_count(&c), 2);
        assert_eq!(*c.take(), 5);
        assert_eq!(Rc::strong_count(&w), 1);
        assert_eq!(format!("{:?}", SendWrapper::new(3)), "SendWrapper(3)");
    }

    #[test]
    fn another_thread_may_move_it_but_not_use_it() {
        let w = SendWrapper::new(Rc::new(1));
        let (valid, used) = thread::spawn(move || {
            let valid = w.valid();
            let used = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| **w)).is_ok();
            // Hand it back rather than drop it here.
            (valid, used, w)
        })
        .join()
        .map(|(v, u, w)| {
            drop(w);
            (v, u)
        })
        .unwrap();
        assert!(!valid);
        assert!(!used);
    }

    #[test]
    fn dropping_on_another_thread_panics_unless_nothing_to_drop() {
        let w = SendWrapper::new(Rc::new(1));
        assert!(thread::spawn(move || drop(w)).join().is_err());
        let plain = SendWrapper::new(7u32);
        assert!(thread::spawn(move || drop(plain)).join().is_ok());
    }
}
