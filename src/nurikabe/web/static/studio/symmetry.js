// The symmetry partners of a cell: where the studio places a ? clue when a clue is placed.

/** The cells other than `cell` that `symmetry` pairs with it on a rows x cols grid. */
export function partners(cell, rows, cols, symmetry) {
  const r = Math.floor(cell / cols);
  const c = cell % cols;
  let other;
  if (symmetry === "rotate") other = (rows - 1 - r) * cols + (cols - 1 - c);
  else if (symmetry === "mirror-lr") other = r * cols + (cols - 1 - c);
  else if (symmetry === "mirror-tb") other = (rows - 1 - r) * cols + c;
  else return [];
  return other === cell ? [] : [other];
}
