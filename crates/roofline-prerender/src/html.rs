//! A small HTML writer: elements, attributes and text, every text escaped.

/// HTML being written, as one string with no whitespace between tags (the
/// app's DOM has none either, so inline elements sit exactly as they do
/// there).
#[derive(Default)]
pub struct Html(String);

/// Escapes text for an element's content or a quoted attribute.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

impl Html {
    /// Opens `tag` with `attrs` (an empty value writes the bare name).
    pub fn open(&mut self, tag: &str, attrs: &[(&str, &str)]) -> &mut Self {
        self.0.push('<');
        self.0.push_str(tag);
        for (name, value) in attrs {
            self.0.push(' ');
            self.0.push_str(name);
            if !value.is_empty() {
                self.0.push_str("=\"");
                self.0.push_str(&escape(value));
                self.0.push('"');
            }
        }
        self.0.push('>');
        self
    }

    /// Closes `tag`.
    pub fn close(&mut self, tag: &str) -> &mut Self {
        self.0.push_str("</");
        self.0.push_str(tag);
        self.0.push('>');
        self
    }

    /// Escaped text.
    pub fn text(&mut self, s: &str) -> &mut Self {
        self.0.push_str(&escape(s));
        self
    }

    /// `<tag attrs>text</tag>`.
    pub fn el(&mut self, tag: &str, attrs: &[(&str, &str)], text: &str) -> &mut Self {
        self.open(tag, attrs).text(text).close(tag)
    }

    /// Markup written elsewhere and trusted (the charts' SVG, made here).
    pub fn raw(&mut self, markup: &str) -> &mut Self {
        self.0.push_str(markup);
        self
    }

    /// The markup written.
    pub fn finish(self) -> String {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_attributes_are_escaped() {
        let mut h = Html::default();
        h.el("p", &[("title", "a\"b<")], "<script>&");
        assert_eq!(
            h.finish(),
            "<p title=\"a&quot;b&lt;\">&lt;script&gt;&amp;</p>"
        );
    }

    #[test]
    fn a_bare_attribute_has_no_value() {
        let mut h = Html::default();
        h.open("input", &[("readonly", ""), ("value", "1")]);
        assert_eq!(h.finish(), "<input readonly value=\"1\">");
    }
}
