/* Force-included after SimGrid's smpi_helpers.h in the simulated build (cmake/a2afft_smpi.cmake).
 * Its exit(x) macro, which makes a rank's exit() end only that rank, also renames every member
 * called exit (CLI11's App::exit, with three parameters, no longer compiles). a2afft never
 * calls exit(): every rank returns from main, which SMPI handles as a rank's end. */
#ifdef __cplusplus
#undef exit
#endif
