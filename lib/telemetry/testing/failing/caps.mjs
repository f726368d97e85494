// A capability that always throws: its stage fails, and with it the run.
export function explode() {
  throw new Error('the explode capability blew up on purpose');
}
