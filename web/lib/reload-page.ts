/** A full reload, behind a module of its own so tests can observe it (jsdom cannot reload). */
export function reloadPage(): void {
  window.location.reload();
}
