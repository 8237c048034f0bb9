#pragma once

// FFTW's calls of one precision, as one table: fftw_* for double, fftwf_* for float (Debian's
// libfftw3 and libfftw3f), so that a program that calls FFTW itself (a reference transform, a
// check) writes one code path over both. a2afft's engines plan through this same table (the
// guru64 interface); the a2afft command's FFTW reference rows use its many-plan calls. Beside it,
// FFTW's planner flag for a Rigor. Needs <fftw3.h> (libfftw3-dev).
//
//     template <typename Real>
//     void transform(int n, std::complex<Real>* data) {
//       using Api = a2afft::FftwApi<Real>;
//       auto* z = reinterpret_cast<typename Api::FftwComplex*>(data);
//       const typename Api::Plan plan =
//           Api::plan_many_dft(1, &n, 1, z, nullptr, 1, n, z, nullptr, 1, n, FFTW_FORWARD,
//                              FFTW_ESTIMATE);
//       Api::execute(plan);
//       Api::destroy(plan);
//     }

#include <fftw3.h>

#include <a2afft/transform.hpp>

namespace a2afft {

/// FFTW's calls of precision `Real`: specialized for double and float.
template <typename Real>
struct FftwApi;

/// FFTW's calls for double (fftw_*).
template <>
struct FftwApi<double> {
  using Plan = fftw_plan;                                              ///< a plan
  using FftwComplex = fftw_complex;                                    ///< FFTW's complex number
  static constexpr auto plan_dft = fftw_plan_guru64_dft;               ///< guru64 c2c plan
  static constexpr auto plan_r2c = fftw_plan_guru64_dft_r2c;           ///< guru64 r2c plan
  static constexpr auto plan_c2r = fftw_plan_guru64_dft_c2r;           ///< guru64 c2r plan
  static constexpr auto plan_r2r = fftw_plan_guru64_r2r;               ///< guru64 r2r plan
  static constexpr auto plan_many_dft = fftw_plan_many_dft;            ///< many-plan c2c
  static constexpr auto plan_many_r2c = fftw_plan_many_dft_r2c;        ///< many-plan r2c
  static constexpr auto plan_many_c2r = fftw_plan_many_dft_c2r;        ///< many-plan c2r
  static constexpr auto plan_many_r2r = fftw_plan_many_r2r;            ///< many-plan r2r
  static constexpr auto execute = fftw_execute;                        ///< run on the plan's arrays
  static constexpr auto execute_dft = fftw_execute_dft;                ///< c2c on other arrays
  static constexpr auto execute_r2c = fftw_execute_dft_r2c;            ///< r2c on other arrays
  static constexpr auto execute_c2r = fftw_execute_dft_c2r;            ///< c2r on other arrays
  static constexpr auto execute_r2r = fftw_execute_r2r;                ///< r2r on other arrays
  static constexpr auto destroy = fftw_destroy_plan;                   ///< frees a plan
  static constexpr auto export_wisdom = fftw_export_wisdom_to_string;  ///< wisdom as text
  static constexpr auto import_wisdom = fftw_import_wisdom_from_string;       ///< wisdom from text
  static constexpr auto export_wisdom_file = fftw_export_wisdom_to_filename;  ///< to a file
  static constexpr auto import_wisdom_file = fftw_import_wisdom_from_filename;  ///< from a file
  static constexpr auto free = fftw_free;                  ///< frees FFTW's memory
  static constexpr auto init_threads = fftw_init_threads;  ///< readies threads
  static constexpr auto make_planner_thread_safe = fftw_make_planner_thread_safe;  ///< locks
  static constexpr auto planner_nthreads = fftw_planner_nthreads;      ///< threads of new plans
  static constexpr auto plan_with_nthreads = fftw_plan_with_nthreads;  ///< sets them
};

/// FFTW's calls for float (fftwf_*).
template <>
struct FftwApi<float> {
  using Plan = fftwf_plan;                                        ///< a plan
  using FftwComplex = fftwf_complex;                              ///< FFTW's complex number
  static constexpr auto plan_dft = fftwf_plan_guru64_dft;         ///< guru64 c2c plan
  static constexpr auto plan_r2c = fftwf_plan_guru64_dft_r2c;     ///< guru64 r2c plan
  static constexpr auto plan_c2r = fftwf_plan_guru64_dft_c2r;     ///< guru64 c2r plan
  static constexpr auto plan_r2r = fftwf_plan_guru64_r2r;         ///< guru64 r2r plan
  static constexpr auto plan_many_dft = fftwf_plan_many_dft;      ///< many-plan c2c
  static constexpr auto plan_many_r2c = fftwf_plan_many_dft_r2c;  ///< many-plan r2c
  static constexpr auto plan_many_c2r = fftwf_plan_many_dft_c2r;  ///< many-plan c2r
  static constexpr auto plan_many_r2r = fftwf_plan_many_r2r;      ///< many-plan r2r
  static constexpr auto execute = fftwf_execute;                  ///< run on the plan's arrays
  static constexpr auto execute_dft = fftwf_execute_dft;          ///< c2c on other arrays
  static constexpr auto execute_r2c = fftwf_execute_dft_r2c;      ///< r2c on other arrays
  static constexpr auto execute_c2r = fftwf_execute_dft_c2r;      ///< c2r on other arrays
  static constexpr auto execute_r2r = fftwf_execute_r2r;          ///< r2r on other arrays
  static constexpr auto destroy = fftwf_destroy_plan;             ///< frees a plan
  static constexpr auto export_wisdom = fftwf_export_wisdom_to_string;         ///< wisdom as text
  static constexpr auto import_wisdom = fftwf_import_wisdom_from_string;       ///< wisdom from text
  static constexpr auto export_wisdom_file = fftwf_export_wisdom_to_filename;  ///< to a file
  static constexpr auto import_wisdom_file = fftwf_import_wisdom_from_filename;  ///< from a file
  static constexpr auto free = fftwf_free;                  ///< frees FFTW's memory
  static constexpr auto init_threads = fftwf_init_threads;  ///< readies threads
  static constexpr auto make_planner_thread_safe = fftwf_make_planner_thread_safe;  ///< locks
  static constexpr auto planner_nthreads = fftwf_planner_nthreads;      ///< threads of new plans
  static constexpr auto plan_with_nthreads = fftwf_plan_with_nthreads;  ///< sets them
};

/// FFTW's planner flag for a2afft's `rigor`: FFTW_ESTIMATE, FFTW_MEASURE or FFTW_PATIENT.
inline unsigned fftw_planner_flags(Rigor rigor) {
  switch (rigor) {
    case Rigor::estimate:
      return FFTW_ESTIMATE;
    case Rigor::patient:
      return FFTW_PATIENT;
    case Rigor::measure:
      break;
  }
  return FFTW_MEASURE;
}

}  // namespace a2afft
