//! The fields of Nsight Compute's CSV lines: quoted, `""` for a quote in
//! one, separated by `,` (or `;`, the separator's byte `sep`), read
//! without copying where a field needs no unescaping.

/// The byte ranges of `line`'s fields, as written (quotes and all), into
/// `out`; `false` when a quote is left open (a line cut off).
pub(super) fn ranges(line: &str, sep: u8, out: &mut Vec<(usize, usize)>) -> bool {
    out.clear();
    let (mut start, mut quoted) = (0, false);
    for (i, b) in line.bytes().enumerate() {
        match b {
            b'"' => quoted = !quoted,
            _ if b == sep && !quoted => {
                out.push((start, i));
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push((start, line.len()));
    !quoted
}

/// The text of the field at `line[a..b]`, trimmed, as [`split`] reads it:
/// borrowed when it is plain or simply quoted.
pub(super) fn cell(line: &str, a: usize, b: usize, sep: u8) -> std::borrow::Cow<'_, str> {
    let raw = line.get(a..b).unwrap_or("");
    let inner = raw
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .unwrap_or(raw);
    if !inner.contains('"') {
        return inner.trim().into();
    }
    let field = split(raw, sep).and_then(|f| f.into_iter().next());
    field.unwrap_or_default().trim().to_string().into()
}

/// The fields of one CSV line (`"` quotes a field, `""` is a quote in
/// one); `None` when a quote is left open (a line cut off).
pub(super) fn split(line: &str, sep: u8) -> Option<Vec<String>> {
    let (mut fields, mut field, mut quoted) = (Vec::new(), String::new(), false);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (_, '"') => quoted = !quoted,
            (false, c) if c == char::from(sep) => fields.push(std::mem::take(&mut field)),
            _ => field.push(c),
        }
    }
    if quoted {
        return None;
    }
    fields.push(field);
    Some(fields)
}
