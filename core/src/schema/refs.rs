//! `$ref`: resolving a local reference, finding references that go nowhere, leave the schema
//! or recurse, and inlining the ones that can be inlined (an exact rewrite).
//!
//! Policy: references are resolved against the document root (`#/...`), the form every MCP
//! server and `schemars` write. Anything else (another document, a URL) is external and never
//! fetched. Every walk is bounded in depth and in the nodes it may produce, so no schema (a
//! reference "bomb" included) can exhaust the stack or memory.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::keywords::{child, for_each_subschema, holds, is_annotation, Holds};
use super::merge::merge_into;
use super::report::{RefusalReason, SchemaRefusal};
use crate::schema::dialect::RefSupport;
use crate::schema::Dialect;

/// The deepest a schema may nest (serde_json's own parser stops at 128).
pub(crate) const MAX_DEPTH: usize = 160;
/// The most nodes inlining may produce: far above any real tool (notion's largest is a few
/// thousand), far below what would hurt.
pub(crate) const MAX_NODES: usize = 200_000;

/// Why a reference cannot be followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RefFault {
    /// It leaves the document.
    External,
    /// It names nothing in the document.
    Nowhere,
}

/// The node `reference` names in `root`, and its pointer.
pub(crate) fn resolve<'a>(
    root: &'a Value,
    reference: &str,
) -> Result<(&'a Value, String), RefFault> {
    let Some(fragment) = reference.strip_prefix('#') else {
        return Err(RefFault::External);
    };
    let fragment = percent_decode(fragment).ok_or(RefFault::Nowhere)?;
    if fragment.is_empty() {
        return Ok((root, String::new()));
    }
    if fragment.starts_with('/') {
        return root
            .pointer(&fragment)
            .map(|target| (target, fragment))
            .ok_or(RefFault::Nowhere);
    }
    // `#name`: a plain-name fragment, an `$anchor`.
    find_anchor(root, &fragment, String::new(), 0).ok_or(RefFault::Nowhere)
}

fn find_anchor<'a>(
    node: &'a Value,
    anchor: &str,
    at: String,
    depth: usize,
) -> Option<(&'a Value, String)> {
    let map = node.as_object()?;
    if depth > MAX_DEPTH {
        return None;
    }
    if map.get("$anchor").and_then(Value::as_str) == Some(anchor) {
        return Some((node, at));
    }
    let mut found = None;
    for_each_subschema(map, |segments, sub| {
        if found.is_none() {
            found = find_anchor(sub, anchor, child(&at, segments), depth + 1);
        }
    });
    found
}

fn percent_decode(text: &str) -> Option<String> {
    if !text.contains('%') {
        return Some(text.to_owned());
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A reference that cannot travel as it is, found by [`ref_faults`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RefFinding {
    /// The pointer of the node that holds the `$ref`.
    pub pointer: String,
    /// The reference.
    pub reference: String,
    /// What is wrong with it.
    pub reason: RefusalReason,
}

/// Every reference reachable from the root that goes nowhere, leaves the document, or
/// recurses (refers to a schema it stands in, directly or through other references). Unused
/// definitions are not looked at: they never reach the wire.
pub(crate) fn ref_faults(root: &Value) -> Vec<RefFinding> {
    let mut walk = RefWalk {
        root,
        stack: Vec::new(),
        done: HashSet::new(),
        findings: Vec::new(),
    };
    walk.expand(root, String::new());
    walk.findings
}

struct RefWalk<'a> {
    root: &'a Value,
    /// The targets being expanded, outermost first.
    stack: Vec<String>,
    done: HashSet<String>,
    findings: Vec<RefFinding>,
}

impl<'a> RefWalk<'a> {
    fn expand(&mut self, target: &'a Value, target_pointer: String) {
        if self.stack.len() > MAX_DEPTH {
            self.findings.push(RefFinding {
                pointer: target_pointer,
                reference: String::new(),
                reason: RefusalReason::TooLarge,
            });
            return;
        }
        self.stack.push(target_pointer.clone());
        let mut refs = Vec::new();
        collect_refs(target, &target_pointer, 0, &mut refs);
        for (pointer, reference) in refs {
            match resolve(self.root, &reference) {
                Err(fault) => self.findings.push(RefFinding {
                    pointer,
                    reference,
                    reason: match fault {
                        RefFault::External => RefusalReason::ExternalRef,
                        RefFault::Nowhere => RefusalReason::RefToNowhere,
                    },
                }),
                Ok((next, next_pointer)) => {
                    if self.stack.contains(&next_pointer) {
                        self.findings.push(RefFinding {
                            pointer,
                            reference,
                            reason: RefusalReason::Recursive,
                        });
                    } else if !self.done.contains(&next_pointer) {
                        self.expand(next, next_pointer);
                    }
                }
            }
        }
        self.stack.pop();
        self.done.insert(target_pointer);
    }
}

/// The `$ref`s in `node`'s subtree (definitions excepted), with their pointers.
fn collect_refs(node: &Value, pointer: &str, depth: usize, out: &mut Vec<(String, String)>) {
    let Some(map) = node.as_object() else { return };
    if depth > MAX_DEPTH {
        return;
    }
    if let Some(Value::String(reference)) = map.get("$ref") {
        out.push((pointer.to_owned(), reference.clone()));
    }
    for_each_subschema(map, |segments, sub| {
        if segments[0] != "$defs" && segments[0] != "definitions" {
            collect_refs(sub, &child(pointer, segments), depth + 1, out);
        }
    });
}

/// Why a recursive `reference` cannot travel to `dialect`, in the words of its table: no
/// references at all (a recursive schema cannot be inlined), or references its provider refuses
/// to let recurse.
pub(crate) fn no_recursion_why(dialect: Dialect, reference: &str) -> String {
    let stands_in = format!("`{reference}` refers to a schema it stands in");
    match dialect.rules().refs {
        RefSupport::None => format!(
            "{stands_in}, and {dialect} has no recursion: it takes no `$ref`, and a recursive \
             schema cannot be inlined"
        ),
        RefSupport::Local => format!(
            "{stands_in}, and {dialect} has no recursion: its provider refuses recursive schemas"
        ),
        // Only a walk that inlines meets a recursion here, and it cannot inline one.
        RefSupport::LocalAndRecursive => format!("{stands_in}, and cannot be inlined"),
    }
}

/// Whether the root says it is draft 7 or older, where a `$ref`'s siblings are ignored.
pub(crate) fn siblings_ignored(root: &Value) -> bool {
    super::keywords::names_draft_07_or_older(root)
}

/// Inlines every reference of a schema that has no recursion (check [`ref_faults`] first) and
/// drops the definitions: an exact rewrite.
pub(crate) struct Inliner<'a> {
    pub root: &'a Value,
    pub dialect: Dialect,
    pub siblings_ignored: bool,
    pub budget: usize,
}

impl Inliner<'_> {
    /// `node` with every reference inlined; `pointer` is where it stands, for refusals.
    pub(crate) fn inline(
        &mut self,
        node: &Value,
        pointer: &str,
        stack: &mut Vec<String>,
    ) -> Result<Value, SchemaRefusal> {
        if self.budget == 0 || stack.len() > MAX_DEPTH || pointer.len() > 64 * MAX_DEPTH {
            return Err(self.too_large(pointer));
        }
        self.budget -= 1;
        let Value::Object(map) = node else {
            return Ok(node.clone());
        };
        let mut out = self.inline_children(map, pointer, stack)?;
        let Some(reference) = map.get("$ref") else {
            return Ok(Value::Object(out));
        };
        let Value::String(reference) = reference else {
            return Err(SchemaRefusal::new(
                self.dialect,
                pointer,
                "$ref",
                RefusalReason::NotJsonSchema,
                "`$ref` must be a string",
            ));
        };
        out.remove("$ref");
        let (target, target_pointer) = resolve(self.root, reference).map_err(|fault| {
            let (reason, why) = match fault {
                RefFault::External => (
                    RefusalReason::ExternalRef,
                    format!(
                        "`{reference}` leaves the schema; only local references (`#/...`) travel"
                    ),
                ),
                RefFault::Nowhere => (
                    RefusalReason::RefToNowhere,
                    format!("`{reference}` names nothing in the schema"),
                ),
            };
            SchemaRefusal::new(self.dialect, pointer, "$ref", reason, why)
        })?;
        if stack.contains(&target_pointer) {
            return Err(SchemaRefusal::new(
                self.dialect,
                pointer,
                "$ref",
                RefusalReason::Recursive,
                no_recursion_why(self.dialect, reference),
            ));
        }
        stack.push(target_pointer);
        let inlined = self.inline(target, pointer, stack);
        stack.pop();
        let mut inlined = match inlined? {
            Value::Object(map) => map,
            Value::Bool(true) => Map::new(),
            Value::Bool(false) => Map::from_iter([("not".to_owned(), Value::Object(Map::new()))]),
            _ => {
                return Err(SchemaRefusal::new(
                    self.dialect,
                    pointer,
                    "$ref",
                    RefusalReason::NotJsonSchema,
                    format!("`{reference}` names a value that is not a schema"),
                ))
            }
        };
        // The referring site's annotations are the more specific: they win.
        let mut validation = Map::new();
        for (key, value) in out {
            if is_annotation(&key) {
                inlined.insert(key, value);
            } else if !self.siblings_ignored {
                validation.insert(key, value);
            }
        }
        let leftover = merge_into(&mut inlined, validation);
        if !leftover.is_empty() {
            let all_of = inlined
                .entry("allOf")
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(list) = all_of {
                list.push(Value::Object(leftover));
            }
        }
        Ok(Value::Object(inlined))
    }

    fn inline_children(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
        stack: &mut Vec<String>,
    ) -> Result<Map<String, Value>, SchemaRefusal> {
        let mut out = Map::new();
        for (key, value) in map {
            let k = key.as_str();
            if k == "$defs" || k == "definitions" {
                continue;
            }
            let inlined = match (holds(k), value) {
                (Some(Holds::One), sub) => self.inline(sub, &child(pointer, &[k]), stack)?,
                (Some(Holds::OneOrList | Holds::List), Value::Array(list)) => Value::Array(
                    list.iter()
                        .enumerate()
                        .map(|(i, sub)| {
                            self.inline(sub, &child(pointer, &[k, &i.to_string()]), stack)
                        })
                        .collect::<Result<_, _>>()?,
                ),
                (Some(Holds::OneOrList), sub) => self.inline(sub, &child(pointer, &[k]), stack)?,
                (Some(Holds::Map), Value::Object(subs)) => {
                    let mut inlined = Map::new();
                    for (name, sub) in subs {
                        inlined.insert(
                            name.clone(),
                            self.inline(sub, &child(pointer, &[k, name]), stack)?,
                        );
                    }
                    Value::Object(inlined)
                }
                // A subschema keyword holding no schemas is copied as it is.
                (Some(_), other) => other.clone(),
                (None, other) => {
                    self.budget = self.budget.saturating_sub(1);
                    other.clone()
                }
            };
            out.insert(key.clone(), inlined);
        }
        Ok(out)
    }

    fn too_large(&self, pointer: &str) -> SchemaRefusal {
        SchemaRefusal::new(
            self.dialect,
            pointer,
            "$ref",
            RefusalReason::TooLarge,
            format!("inlining its references would pass {MAX_NODES} nodes or {MAX_DEPTH} levels"),
        )
    }
}
