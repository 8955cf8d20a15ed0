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

    /// An empty writer at this one's indentation: code written there first, then
    /// [`append`](Self::append)ed, so that what precedes it can depend on what it reads.
    pub fn nested(&self) -> Self {
        Self {
            out: String::new(),
            indent: self.indent,
        }
    }

    pub fn append(&mut self, nested: Writer) {
        self.out.push_str(&nested.out);
    }

    /// Whether the code written so far names the identifier `name`.
    pub fn mentions(&self, name: &str) -> bool {
        mentions(&self.out, name)
    }

    pub fn finish(self) -> String {
        self.out
    }
}

/// Whether C source `code` names the identifier `name` (a whole word, comments included), so
/// that a declaration or helper it might need is written only where it does: OpenCL compilers
/// and NVRTC warn of unused ones.
pub fn mentions(code: &str, name: &str) -> bool {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    code.match_indices(name).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + name.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mentions_whole_identifiers_only() {
        let mut w = Writer::new();
        w.line("const int nx1 = snx0 + nx0_b;");
        assert!(w.mentions("nx1"));
        assert!(!w.mentions("nx0"));
        w.line("x = (nx0);");
        assert!(w.mentions("nx0"));
    }

    #[test]
    fn nested_code_keeps_its_indentation() {
        let mut w = Writer::new();
        w.block("if (a)", |w| {
            let mut body = w.nested();
            body.line("b();");
            w.line("c();");
            w.append(body);
        });
        assert_eq!(w.finish(), "if (a) {\n    c();\n    b();\n}\n");
    }

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
