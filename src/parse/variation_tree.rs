//! The tree of lines of play, built from moves read in file order and
//! numbered by the file: a variation heading names the move it replaces.
//! KIF and KI2 build records with it; nothing here depends on the format.

use crate::error::ParseError;
use crate::parse::eval::floodgate_comment;
use crate::record::{Ending, Line, Location, MoveEntry, Record};

/// Variations nested deeper than this are refused: the record tree is
/// dropped and compared recursively, so unbounded depth could overflow the
/// stack. Real files stay far below it.
pub const MAX_VARIATION_DEPTH: usize = 200;

/// Where a comment or bookmark attaches.
#[derive(Clone, Copy, Debug)]
enum Attach {
    Start,
    Move { line: usize, index: usize },
    Ending { line: usize },
}

/// One line of play in the arena: its moves, their numbers, and where it
/// branches off.
#[derive(Debug, Default)]
struct Node {
    line: Line,
    /// The move number of each move (written in KIF, counted in KI2).
    numbers: Vec<u32>,
    /// (parent line, index of the move this line replaces).
    parent: Option<(usize, usize)>,
    depth: usize,
}

/// The tree of lines of play of a KIF or KI2 record, built in a flat arena
/// and assembled at the end, so no recursion depends on the input. It also
/// knows where the next comment or bookmark attaches (`kif.md` §7, §9).
pub(crate) struct Tree {
    nodes: Vec<Node>,
    current: usize,
    target: Attach,
}

impl Tree {
    pub(crate) fn new() -> Tree {
        Tree {
            nodes: vec![Node::default()],
            current: 0,
            target: Attach::Start,
        }
    }

    /// The line of play being read.
    pub(crate) fn line(&self) -> &Line {
        &self.nodes[self.current].line
    }

    /// The number the next move of the current line has, when the file does
    /// not write it: one past the last move, or the number of the move a
    /// variation replaces, or `first` on an empty main line.
    pub(crate) fn next_number(&self, first: u32) -> u32 {
        let node = &self.nodes[self.current];
        if let Some(&n) = node.numbers.last() {
            return n.saturating_add(1);
        }
        match node.parent {
            // Past the parent's moves: the variation replaces its terminal
            // word, numbered one after its last move.
            Some((p, i)) => match self.nodes[p].numbers.get(i) {
                Some(&n) => n,
                None => self.nodes[p]
                    .numbers
                    .last()
                    .map_or(first, |&n| n.saturating_add(1)),
            },
            None => first,
        }
    }

    /// Room for `n` more moves on the current line: a game's moves are
    /// otherwise copied each time their vector doubles.
    pub(crate) fn reserve(&mut self, n: usize) {
        let node = &mut self.nodes[self.current];
        node.line.moves.reserve(n);
        node.numbers.reserve(n);
    }

    // Always inlined so the entry is written once, into the vector, rather
    // than copied into this call and again into the vector (it pays per
    // move; a plain #[inline] was not taken).
    #[inline(always)]
    pub(crate) fn push_move(&mut self, entry: MoveEntry, number: u32) {
        let node = &mut self.nodes[self.current];
        node.line.moves.push(entry);
        node.numbers.push(number);
        self.target = Attach::Move {
            line: self.current,
            index: node.line.moves.len() - 1,
        };
    }

    pub(crate) fn set_ending(&mut self, ending: Ending) {
        self.nodes[self.current].line.ending = Some(ending);
        self.target = Attach::Ending { line: self.current };
    }

    /// `変化：N手`: the next moves replace move N of the most recent line of
    /// play that has one — the current line first, then the lines it
    /// branched from (KfW writes blocks depth-first, so this finds it).
    pub(crate) fn start_variation(&mut self, n: u32, span: Location) -> Result<(), ParseError> {
        let mut at = Some(self.current);
        while let Some(idx) = at {
            let node = &self.nodes[idx];
            // A variation that itself starts at or after move N cannot hold
            // the branch point: the new block is its sibling or an uncle.
            let starts_after =
                node.parent.is_some() && node.numbers.first().is_some_and(|&f| f >= n);
            let found = if starts_after {
                None
            } else {
                find_move(&node.numbers, n).or_else(|| self.terminal_at(idx, n))
            };
            if let Some(index) = found {
                let depth = self.nodes[idx].depth + 1;
                if depth > MAX_VARIATION_DEPTH {
                    return Err(ParseError::new(
                        span,
                        format!("variations nested deeper than {MAX_VARIATION_DEPTH}"),
                    )
                    .of_kind(crate::error::ParseErrorKind::TooDeep));
                }
                self.nodes.push(Node {
                    line: Line::default(),
                    numbers: Vec::new(),
                    parent: Some((idx, index)),
                    depth,
                });
                self.current = self.nodes.len() - 1;
                self.target = self.before(idx, index);
                return Ok(());
            }
            at = self.nodes[idx].parent.map(|(p, _)| p);
        }
        Err(ParseError::new(
            span,
            format!("変化：{n}手 has no move {n} to branch from in the lines read so far"),
        )
        .of_kind(crate::error::ParseErrorKind::Variation))
    }

    /// The index past the last move of line `idx` when its terminal word
    /// (投了, 中断, …) is move `n`: a variation there replaces the ending
    /// (Gekisashi, tsshogi). A variation holding only a terminal word has
    /// no terminal of its own to branch from: its number is its parent's.
    fn terminal_at(&self, idx: usize, n: u32) -> Option<usize> {
        let node = &self.nodes[idx];
        node.line.ending.as_ref()?;
        let number = match node.numbers.last() {
            Some(&last) => last.saturating_add(1),
            None if node.parent.is_none() => 1,
            None => return None,
        };
        (number == n).then_some(node.line.moves.len())
    }

    /// The node a comment written right after `変化：N手` describes: the
    /// position before the replaced move.
    fn before(&self, mut line: usize, mut index: usize) -> Attach {
        loop {
            if index > 0 {
                return Attach::Move {
                    line,
                    index: index - 1,
                };
            }
            match self.nodes[line].parent {
                Some((p, i)) => {
                    line = p;
                    index = i;
                }
                None => return Attach::Start,
            }
        }
    }

    /// Attach a `*` comment to the last thing read (the start position's
    /// comments live in `record`).
    /// A move's first comment in the floodgate form (`** 30 -3334FU`, as
    /// ShogiHome and tsshogi write a CSA `'**` line) is its evaluation.
    pub(crate) fn comment(&mut self, c: String, record: &mut Record) {
        match self.target {
            Attach::Start => record.comments.push(c),
            Attach::Move { line, index } => {
                let extra = self.nodes[line].line.moves[index].extra_mut();
                match floodgate_comment(&c).filter(|_| extra.eval.is_none()) {
                    Some(e) => extra.eval = Some(e),
                    None => extra.comments.push(c),
                }
            }
            Attach::Ending { line } => {
                if let Some(e) = &mut self.nodes[line].line.ending {
                    e.comments.push(c);
                }
            }
        }
    }

    /// Attach a `&` bookmark to the last move read, or to the start position.
    pub(crate) fn bookmark(&mut self, name: &str, raw: &str, record: &mut Record) {
        match self.target {
            Attach::Move { line, index } => self.nodes[line].line.moves[index]
                .extra_mut()
                .bookmarks
                .push(name.to_string()),
            Attach::Start => record.bookmarks.push(name.to_string()),
            // The record has no bookmark slot for an ending: keep the line verbatim.
            Attach::Ending { .. } => record.notes.push(raw.to_string()),
        }
    }

    /// Build the tree: children always come after their parent in the
    /// arena, so popping it attaches every line after its own children are
    /// in, and the main line comes out last.
    pub(crate) fn finish(mut self) -> Line {
        while let Some(mut node) = self.nodes.pop() {
            // Every child of this node had a higher index, so all of them
            // are attached by now, pushed in reverse file order.
            reverse_variations(&mut node.line);
            let Some((p, index)) = node.parent else {
                return node.line;
            };
            if node.line.moves.is_empty() && node.line.ending.is_none() {
                continue;
            }
            // Pushing (not inserting at the front) keeps 100,000 sibling
            // variations linear; the order is restored by the reverse above.
            let parent = &mut self.nodes[p].line;
            match parent.moves.get_mut(index) {
                Some(m) => m.extra_mut().variations.push(node.line),
                None => parent.ending_variations.push(node.line),
            }
        }
        Line::default()
    }
}

/// Undo the reverse order in which [`Tree::finish`] attaches variations.
fn reverse_variations(line: &mut Line) {
    line.ending_variations.reverse();
    for m in &mut line.moves {
        if !m.variations().is_empty() {
            m.extra_mut().variations.reverse();
        }
    }
}

/// The index of the move numbered `n`. Numbers usually run on from the
/// first move, so that slot is tried before a scan.
fn find_move(numbers: &[u32], n: u32) -> Option<usize> {
    let first = *numbers.first()?;
    if let Some(g) = n.checked_sub(first).map(|d| d as usize)
        && numbers.get(g) == Some(&n)
    {
        return Some(g);
    }
    numbers.iter().position(|&m| m == n)
}
