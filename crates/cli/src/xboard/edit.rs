//! XBoard's edit mode (`edit`, piece placements, `c`, `#`, `.`): a
//! position set up square by square.

use super::*;

impl Session {
    /// `edit`: enters edit mode on the current board, first player to set up.
    pub(super) fn start_edit(&mut self) {
        self.abort_search();
        self.edit = Some(Edit {
            side: Side::First,
            cells: BTreeMap::new(),
        });
        self.edit_seed();
    }

    /// Edit mode starts from the current board.
    pub(super) fn edit_seed(&mut self) {
        let Some(edit) = self.edit.as_mut() else {
            return;
        };
        for side in Side::BOTH {
            for &sq in self.pos.pieces(side) {
                edit.cells
                    .insert(sq, self.core.variant().token(self.pos.at(sq)));
            }
        }
    }

    /// A line of edit mode: `#` clears, `c` changes colour, `Pa4` places a
    /// piece of the current colour, `xa4` empties a square, `.` ends.
    pub(super) fn edit_line(&mut self, line: &str) {
        let Some(edit) = self.edit.as_mut() else {
            return;
        };
        let g = &self.core.variant().geometry;
        match line {
            "#" => edit.cells.clear(),
            "c" => edit.side = edit.side.flip(),
            "." => {
                let edit = self.edit.take().expect("in edit mode");
                self.finish_edit(edit);
            }
            _ => {
                // The square is the longest tail that names one.
                let split = (1..line.len()).find(|&i| {
                    line.is_char_boundary(i)
                        && line.as_bytes()[i].is_ascii_lowercase()
                        && g.squares().any(|s| xboard_square(g, s) == line[i..])
                });
                let Some(i) = split else {
                    return self.error("edit: expected a piece and a square", line);
                };
                let sq = g
                    .squares()
                    .find(|&s| xboard_square(g, s) == line[i..])
                    .expect("found above");
                let piece = &line[..i];
                if piece == "x" {
                    edit.cells.remove(&sq);
                } else {
                    // XBoard's ID in the colour being placed, as our token.
                    let id = match edit.side {
                        Side::First => piece.to_uppercase(),
                        Side::Second => piece.to_lowercase(),
                    };
                    edit.cells.insert(sq, self.ids.token(&id));
                }
            }
        }
    }

    pub(super) fn finish_edit(&mut self, edit: Edit) {
        let g = &self.core.variant().geometry;
        let mut rows = Vec::new();
        for r in (0..g.ranks()).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for f in 0..g.files() {
                let cell = g.cell(f, r);
                let content = if !g.is_square(cell) {
                    Some("*".to_string())
                } else {
                    edit.cells.get(&cell).cloned()
                };
                match content {
                    Some(t) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push_str(&t);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            rows.push(row);
        }
        let side = &self.core.variant().fen.side_letters[self.pos.side().index()];
        let fen = format!("{} {side}", rows.join("/"));
        self.load_fen(&fen, "edit", ".");
        self.resume_analysis();
    }
}
