//! The rules of the spec's census (hop 1), applied to every tool at once.

use super::name_table::{Key, KeyText, Strings, NONE};
use super::reasons::{LeftOutReason, ToolStatus};
use super::Census;

impl Census {
    /// Decides every tool's status and fills the table.
    pub(super) fn settle(&mut self) {
        let count = self.tools.len();
        let mut next_in_group = vec![NONE; count];
        // Only left-out tools get a status here; most tools are offered.
        let mut left_out: Vec<(usize, LeftOutReason)> = Vec::new();
        let mut duplicates: Vec<String> = Vec::new();
        let strings = Strings {
            tools: &self.tools,
            taken: &self.taken,
            taken_forms: &self.taken_forms,
        };
        let table = &mut self.table;

        // A taken name answers to itself and travels as its form, like any tool: a custom
        // taken name that is not model-safe (`tool/schema`) takes its form (`tool_schema`) too.
        // Names first, so a taken name always answers to itself before another's form.
        for (i, taken) in self.taken.iter().enumerate() {
            let entry = table.slot(Key::Taken(i as u32), taken, &strings);
            if entry.meta == NONE {
                entry.meta = i as u32;
            }
        }
        for (i, (taken, form)) in self.taken.iter().zip(&self.taken_forms).enumerate() {
            if form != taken {
                let entry = table.slot(Key::TakenForm(i as u32), form, &strings);
                if entry.meta == NONE {
                    entry.meta = i as u32;
                }
            }
        }
        let mut first_empty: Option<usize> = None;
        for (i, tool) in self.tools.iter().enumerate() {
            if tool.name.is_empty() {
                // The empty name is a name too: given twice, the second is a duplicate.
                left_out.push((
                    i,
                    match first_empty {
                        None => LeftOutReason::EmptyName,
                        Some(first) => {
                            duplicates.push(String::new());
                            LeftOutReason::DuplicateName { first }
                        }
                    },
                ));
                first_empty.get_or_insert(i);
                continue;
            }
            let entry = table.slot(Key::Name(i as u32), &tool.name, &strings);
            if entry.exact != NONE {
                duplicates.push(tool.name.to_string());
                left_out.push((
                    i,
                    LeftOutReason::DuplicateName {
                        first: entry.exact as usize,
                    },
                ));
                continue;
            }
            entry.exact = i as u32;
            // A safe name is its own form: the same entry, no second lookup.
            let group = if tool.is_own_form() {
                entry
            } else {
                table.slot(Key::Form(i as u32), tool.form(), &strings)
            };
            next_in_group[i] = group.head;
            group.head = i as u32;
            group.len += 1;
        }

        let mut outranked: Vec<usize> = Vec::new();
        let mut shared: Vec<(String, Vec<String>)> = Vec::new();
        for entry in table.entries.iter_mut() {
            if entry.len == 0 {
                continue;
            }
            let form = strings.text(entry.key);
            if entry.len == 1 && entry.meta == NONE {
                if *self.tools[entry.head as usize].name != *form {
                    entry.heal = entry.head;
                }
                continue;
            }
            // A shared form: collect its members.
            let mut members = Vec::with_capacity(entry.len as usize);
            let mut at = entry.head;
            while at != NONE {
                members.push(at as usize);
                at = next_in_group[at as usize];
            }
            let mut names: Vec<String> = members
                .iter()
                .map(|&i| self.tools[i].name.to_string())
                .collect();
            if entry.meta != NONE {
                names.push(self.taken[entry.meta as usize].to_string());
            }
            names.sort();
            names.dedup();
            self.collisions.insert(form.to_owned(), names);

            let before = left_out.len();
            if entry.meta != NONE {
                let meta = self.taken[entry.meta as usize].to_string();
                for &i in &members {
                    left_out.push((i, LeftOutReason::MetaTool { meta: meta.clone() }));
                }
            } else {
                let top = members.iter().map(|&i| self.tools[i].rank).min();
                let (winners, losers): (Vec<usize>, Vec<usize>) = members
                    .iter()
                    .partition(|&&i| Some(self.tools[i].rank) == top);
                let mut holders: Vec<String> = winners
                    .iter()
                    .map(|&i| self.tools[i].name.to_string())
                    .collect();
                holders.sort();
                for &i in &losers {
                    outranked.push(i);
                    left_out.push((
                        i,
                        LeftOutReason::Outranked {
                            holders: holders.clone(),
                        },
                    ));
                }
                if let [winner] = winners[..] {
                    if *self.tools[winner].name != *form {
                        entry.heal = winner as u32;
                    }
                } else {
                    let owner = winners
                        .iter()
                        .copied()
                        .find(|&i| *self.tools[i].name == *form);
                    for &i in &winners {
                        if Some(i) == owner {
                            continue;
                        }
                        left_out.push((
                            i,
                            match owner {
                                Some(owner) => LeftOutReason::FormIsAnotherTool {
                                    owner: self.tools[owner].name.to_string(),
                                },
                                None => LeftOutReason::SharesForm {
                                    others: holders
                                        .iter()
                                        .filter(|h| **h != *self.tools[i].name)
                                        .cloned()
                                        .collect(),
                                },
                            },
                        ));
                    }
                }
            }
            if left_out.len() > before {
                let mut names: Vec<String> = left_out[before..]
                    .iter()
                    .map(|(i, _)| self.tools[*i].name.to_string())
                    .collect();
                names.sort();
                shared.push((form.to_owned(), names));
            }
        }
        // A tool refused for its rank is never reached, not even by its exact name.
        for i in outranked {
            if let Some(e) = table.find(&self.tools[i].name, &strings) {
                let entry = &mut table.entries[e];
                if entry.exact == i as u32 {
                    entry.exact = NONE;
                }
            }
        }
        for (i, reason) in left_out {
            self.tools[i].status = ToolStatus::LeftOut(reason);
        }
        duplicates.sort();
        duplicates.dedup();
        self.duplicates = duplicates;
        shared.sort();
        self.log_left_out(&shared);
    }

    #[cfg(feature = "runtime")]
    fn log_left_out(&self, shared: &[(String, Vec<String>)]) {
        for (form, left_out) in shared {
            let names = &self.collisions[form];
            tracing::warn!(
                form = %form,
                left_out = ?left_out,
                travelling_as_it = ?names,
                "tools share the model-safe form `{form}` and are left out of the request: {}; rename them so each form is unique",
                left_out.join(", ")
            );
        }
        for tool in &self.tools {
            if let Some(reason @ (LeftOutReason::EmptyName | LeftOutReason::DuplicateName { .. })) =
                tool.left_out_reason()
            {
                tracing::warn!(tool = %tool.name, "tool left out of the request: {reason}");
            }
        }
    }

    #[cfg(not(feature = "runtime"))]
    fn log_left_out(&self, _shared: &[(String, Vec<String>)]) {}
}
