export function total(items) {
  return items.reduce((s, i) => s + i.price * i.qty);
}

export function count(items) {
  return items.length;
}
