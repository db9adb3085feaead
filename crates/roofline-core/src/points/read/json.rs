//! JSON: a list of objects, or an object holding one, read with serde.

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;

use super::{
    finish, input_error, left_out, map_columns, unsafe_text, Cell, Format, Plan, Reading, MAX_ROWS,
};
use crate::points::{At, Field, RowError};

/// A JSON input: a list of rows, or an object holding one.
#[derive(Deserialize)]
#[serde(untagged)]
enum Doc {
    List(Vec<Value>),
    Wrapped(Wrapped),
}

/// An object holding the list of rows under `kernels`, `points`, `rows` or
/// `data` (other keys are ignored).
#[derive(Deserialize)]
struct Wrapped {
    #[serde(alias = "points", alias = "rows", alias = "data")]
    kernels: Vec<Value>,
}

pub(super) fn read_json(text: &str, mapping: &[(usize, Field)]) -> Reading {
    let mut reading = Reading {
        format: Some(Format::Json),
        ..Reading::default()
    };
    let items = match serde_json::from_str::<Doc>(text) {
        Ok(Doc::List(items)) | Ok(Doc::Wrapped(Wrapped { kernels: items })) => items,
        Err(e) if e.is_data() => {
            reading.errors.push(input_error(
                "The JSON should be a list of objects, or an object with the list under kernels, points, rows or data.".to_string(),
            ));
            return reading;
        }
        Err(e) => {
            let m = e.to_string();
            let what = m.split(" at line ").next().unwrap_or("");
            let what = if unsafe_text(what) { "not valid" } else { what };
            reading.errors.push(input_error(format!(
                "The JSON could not be read at line {}, column {}: {what}.",
                e.line(),
                e.column()
            )));
            return reading;
        }
    };
    if items.is_empty() {
        return reading;
    }
    // The keys, in first-appearance order.
    let mut headers: Vec<String> = Vec::new();
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for item in items.iter().take(MAX_ROWS) {
        if let Value::Object(m) = item {
            for k in m.keys() {
                if !seen.contains_key(k.as_str()) {
                    seen.insert(k.as_str(), headers.len());
                    headers.push(k.clone());
                }
            }
        }
    }
    drop(seen);
    let (columns, header_units) = map_columns(&headers, mapping, &mut reading.notes);
    reading.columns = columns;
    let plan = Plan::new(&reading.columns, &header_units);
    let Some(mut reader) = finish(&mut reading, plan) else {
        return reading;
    };
    let mut n = 0usize;
    for (i, item) in items.iter().enumerate() {
        if n >= MAX_ROWS {
            reading.errors.push(left_out(items.len() - i));
            break;
        }
        n += 1;
        let at = At::Item(i + 1);
        let Value::Object(m) = item else {
            let what = match item {
                Value::Array(_) => "a list",
                Value::String(_) => "a string",
                Value::Number(_) => "a number",
                Value::Bool(_) => "true or false",
                Value::Null => "null",
                Value::Object(_) => "an object",
            };
            reading.errors.push(RowError {
                at,
                message: format!("is {what}, not an object with the kernel's columns"),
            });
            continue;
        };
        let heads = &headers;
        let result = reader.row(
            |c| Cell::of_json(heads.get(c).and_then(|h| m.get(h.as_str()))),
            n,
        );
        match result {
            Ok(k) => reading.kernels.push(k),
            Err(message) => reading.errors.push(RowError { at, message }),
        }
    }
    reader.plan.mixed_notes(&mut reading.notes);
    reading
}
