//! Floor 2: a field bound to a signal, a memo reading it as a number, and
//! the number shown with three decimals (float formatting included).

use floor::{field, shown};
use leptos::prelude::*;

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(|| {
        let text = RwSignal::new("1.5".to_string());
        let value = Memo::new(move |_| text.with(|t| shown(t)));
        view! {
            {field(text)}
            <p>{move || value.get()}</p>
        }
    });
}
