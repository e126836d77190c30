// patchChildren puts nodes into box in order, keeping each child already there whose
// replacement is the same (same data-id and same(old, new)). A live refresh that changed
// nothing in a row leaves that row's element in place, so a click or tap that is half
// done when the refresh lands still reaches its button instead of a detached copy.
export function patchChildren(box, nodes, same = (a, b) => a.isEqualNode(b)) {
  const old = new Map();
  for (const c of box.children) if (c.dataset.id) old.set(c.dataset.id, c);
  let at = box.firstChild;
  for (const n of nodes) {
    const prev = n.dataset?.id ? old.get(n.dataset.id) : undefined;
    const keep = prev && same(prev, n) ? prev : n;
    if (keep === at) {
      at = at.nextSibling;
      continue;
    }
    box.insertBefore(keep, at);
  }
  while (at) {
    const next = at.nextSibling;
    at.remove();
    at = next;
  }
}
