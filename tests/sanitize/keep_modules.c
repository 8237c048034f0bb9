// Preloaded into the sanitized MPI tests: dlclose() does nothing, so the components Open MPI
// unloads in MPI_Finalize are still mapped when LeakSanitizer reports at exit. Their leaks
// then carry their library's name (mca_*.so) and tests/sanitize/lsan.supp can suppress them by
// name; unloaded, they show as "<unknown module>", which no suppression can name.
int dlclose(void* handle) {
  (void)handle;
  return 0;
}
