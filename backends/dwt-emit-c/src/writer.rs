//! A line-oriented source writer: every emitted line goes through [`Writer::line`], nested code
//! through [`Writer::block`], so indentation is never spelled out by hand.

/// Accumulates C source with the current indentation.
#[derive(Debug, Default)]
pub struct Writer {
    out: String,
    indent: usize,
}

const INDENT: &str = "    ";

impl Writer {
    pub fn new() -> Self {
        Self::default()
    }

    /// One line at the current indentation (an empty `text` gives an empty line).
    pub fn line(&mut self, text: impl AsRef<str>) {
        let text = text.as_ref();
        if !text.is_empty() {
            for _ in 0..self.indent {
                self.out.push_str(INDENT);
            }
            self.out.push_str(text);
        }
        self.out.push('\n');
    }

    pub fn blank(&mut self) {
        self.line("");
    }

    /// `// text`, one line per line of `text`.
    pub fn comment(&mut self, text: impl AsRef<str>) {
        for l in text.as_ref().lines() {
            self.line(format!("// {l}"));
        }
    }

    /// `open {`, the body one level deeper, then `}`.
    pub fn block(&mut self, open: impl AsRef<str>, body: impl FnOnce(&mut Self)) {
        self.block_with(open, "}", body);
    }

    /// `open {`, the body one level deeper, then `close` (e.g. `};`).
    pub fn block_with(
        &mut self,
        open: impl AsRef<str>,
        close: impl AsRef<str>,
        body: impl FnOnce(&mut Self),
    ) {
        let open = open.as_ref();
        if open.is_empty() {
            self.line("{");
        } else {
            self.line(format!("{open} {{"));
        }
        self.indent += 1;
        body(self);
        self.indent -= 1;
        self.line(close);
    }

    pub fn finish(self) -> String {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_indent() {
        let mut w = Writer::new();
        w.block("void f(void)", |w| {
            w.line("int x = 0;");
            w.block("if (x)", |w| w.line("x = 1;"));
        });
        assert_eq!(
            w.finish(),
            "void f(void) {\n    int x = 0;\n    if (x) {\n        x = 1;\n    }\n}\n"
        );
    }
}
