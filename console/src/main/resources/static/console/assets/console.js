// The console's only script besides htmx (no inline handlers: the Content-Security-Policy allows none).
// A button with data-dialog="id" opens that confirmation dialog; one with data-close closes the dialog it is in.
document.addEventListener('click', function (event) {
  var opener = event.target.closest('[data-dialog]');
  if (opener) {
    var dialog = document.getElementById(opener.getAttribute('data-dialog'));
    if (dialog && !dialog.open) {
      dialog.showModal();
    }
    return;
  }
  var closer = event.target.closest('[data-close]');
  if (closer && closer.closest('dialog')) {
    closer.closest('dialog').close();
  }
});
