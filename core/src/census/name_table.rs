//! The census's one table of strings: every real name, every form and every taken name, each
//! stored once by the census and referred to here by position. No key is copied and no
//! reference count is touched, so building costs one hash and one probe per string.

use std::hash::BuildHasher;

use hashbrown::hash_table::{Entry as Slot, HashTable};

use super::tool::CensusTool;

/// Where an entry's string lives in the census.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Key {
    /// The real name of tool `i`.
    Name(u32),
    /// The form of tool `i` (when it is not the tool's whole name).
    Form(u32),
    /// Taken name `i`.
    Taken(u32),
    /// The form of taken name `i` (when it differs from the name).
    TakenForm(u32),
}

/// No index.
pub(super) const NONE: u32 = u32::MAX;

/// What a string is in a census: a taken name, a real name, the form a group of tools travels
/// as, or several of these at once.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    pub(super) key: Key,
    hash: u64,
    /// The taken (meta) name this is, or travels as, or `NONE`.
    pub(super) meta: u32,
    /// The reachable tool whose real name this is, or `NONE`.
    pub(super) exact: u32,
    /// The one tool a call by this form heals to, or `NONE`.
    pub(super) heal: u32,
    /// The tools whose form this is: the newest, linked through the census's `next_in_group`.
    pub(super) head: u32,
    /// How many tools travel as this form.
    pub(super) len: u32,
}

/// Resolves a [`Key`] to its string.
pub(super) trait KeyText {
    fn text(&self, key: Key) -> &str;
}

#[derive(Clone, Debug, Default)]
pub(super) struct NameTable {
    table: HashTable<u32>,
    pub(super) entries: Vec<Entry>,
    hasher: foldhash::fast::RandomState,
}

impl NameTable {
    pub(super) fn with_capacity(capacity: usize) -> NameTable {
        NameTable {
            table: HashTable::with_capacity(capacity),
            entries: Vec::with_capacity(capacity),
            hasher: foldhash::fast::RandomState::default(),
        }
    }

    /// The entry for `text` (whose string is at `key`), added if it is new.
    pub(super) fn slot(&mut self, key: Key, text: &str, strings: &impl KeyText) -> &mut Entry {
        let hash = self.hasher.hash_one(text);
        let entries = &self.entries;
        let index = match self.table.entry(
            hash,
            |&e| entries[e as usize].hash == hash && strings.text(entries[e as usize].key) == text,
            |&e| entries[e as usize].hash,
        ) {
            Slot::Occupied(occupied) => *occupied.get() as usize,
            Slot::Vacant(vacant) => {
                let index = self.entries.len();
                vacant.insert(index as u32);
                self.entries.push(Entry {
                    key,
                    hash,
                    meta: NONE,
                    exact: NONE,
                    heal: NONE,
                    head: NONE,
                    len: 0,
                });
                index
            }
        };
        &mut self.entries[index]
    }

    /// The position of the entry for `text`, if there is one.
    pub(super) fn find(&self, text: &str, strings: &impl KeyText) -> Option<usize> {
        let hash = self.hasher.hash_one(text);
        self.table
            .find(hash, |&e| {
                let entry = &self.entries[e as usize];
                entry.hash == hash && strings.text(entry.key) == text
            })
            .map(|&e| e as usize)
    }
}

/// The census's strings, for the name table's keys.
pub(super) struct Strings<'a> {
    pub(super) tools: &'a [CensusTool],
    pub(super) taken: &'a [Box<str>],
    pub(super) taken_forms: &'a [Box<str>],
}

impl<'a> Strings<'a> {
    /// The string at `key`, borrowed from the census itself (not from this view).
    pub(super) fn get(&self, key: Key) -> &'a str {
        match key {
            Key::Name(i) => &self.tools[i as usize].name,
            Key::Form(i) => self.tools[i as usize].form(),
            Key::Taken(i) => &self.taken[i as usize],
            Key::TakenForm(i) => &self.taken_forms[i as usize],
        }
    }
}

impl KeyText for Strings<'_> {
    fn text(&self, key: Key) -> &str {
        self.get(key)
    }
}
