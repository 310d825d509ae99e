//! Doc comments as descriptions: Markdown's soft wraps joined, its blocks kept.

use syn::{Expr, Lit, Meta};

/// The doc comment as a description: wrapped prose lines are joined with a space (a single
/// newline in Markdown is a soft wrap), while blank lines, list items, headings, quotes, tables
/// and fenced code keep their own lines.
pub fn doc_text(attrs: &[syn::Attribute]) -> String {
    let mut raw: Vec<String> = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let Meta::NameValue(nv) = &attr.meta {
            if let Expr::Lit(syn::ExprLit {
                lit: Lit::Str(s), ..
            }) = &nv.value
            {
                raw.extend(s.value().lines().map(str::to_owned));
            }
        }
    }
    join_doc_lines(&raw)
}

/// `raw` doc lines joined: see [`doc_text`].
fn join_doc_lines(raw: &[String]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut in_fence = false;
    let mut prose_open = false;
    for line in raw {
        let line = line.strip_prefix(' ').unwrap_or(line).trim_end();
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
            out.push(line.to_owned());
            prose_open = false;
        } else if in_fence {
            out.push(line.to_owned());
        } else if trimmed.is_empty() {
            if out.last().is_some_and(|l| !l.is_empty()) {
                out.push(String::new());
            }
            prose_open = false;
        } else if prose_open && !starts_block(trimmed) {
            if let Some(last) = out.last_mut() {
                last.push(' ');
                last.push_str(trimmed);
            }
        } else {
            out.push(if starts_block(trimmed) { line } else { trimmed }.to_owned());
            prose_open = !trimmed.starts_with('#') && !trimmed.starts_with('|');
        }
    }
    out.join("\n").trim().to_owned()
}

/// Whether a Markdown line starts a block of its own (a list item, heading, quote or table row).
fn starts_block(line: &str) -> bool {
    let bullet = ["- ", "* ", "+ "].iter().any(|b| line.starts_with(b));
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    let numbered =
        digits > 0 && (line[digits..].starts_with(". ") || line[digits..].starts_with(") "));
    bullet || numbered || line.starts_with('#') || line.starts_with('>') || line.starts_with('|')
}

#[cfg(test)]
mod tests {
    use super::join_doc_lines;

    fn join(lines: &[&str]) -> String {
        join_doc_lines(&lines.iter().map(|l| (*l).to_owned()).collect::<Vec<_>>())
    }

    #[test]
    fn wrapped_prose_becomes_one_line() {
        assert_eq!(
            join(&[
                " Reads a file of the drive: it",
                " travels as `files_read`."
            ]),
            "Reads a file of the drive: it travels as `files_read`."
        );
    }

    #[test]
    fn paragraphs_lists_and_code_keep_their_lines() {
        assert_eq!(
            join(&[
                " Searches.", "", "", " Modes:", " - fast", " - deep, which", " takes longer",
                " 2. two", "", " ```", " let x = 1;", "   indented();", " ```", " After.",
            ]),
            "Searches.\n\nModes:\n- fast\n- deep, which takes longer\n2. two\n\n```\nlet x = 1;\n  indented();\n```\nAfter."
        );
    }

    #[test]
    fn blank_docs_are_empty() {
        assert_eq!(join(&["", "   ", ""]), "");
    }
}
