#pragma once

// a2afft's public C++ API, its stable core: include this one header and link a2afft::a2afft
// (CMake) or `pkg-config --cflags --libs a2afft`. The tools the a2afft command and benchmarks are
// built on (trials, verification, cost model, roofline, parsers, rank map) are a separate
// target, a2afft::tools, with headers under a2afft/tools/.

#include <a2afft/backends.hpp>
#include <a2afft/buffer.hpp>
#include <a2afft/error.hpp>
#include <a2afft/exchange.hpp>
#include <a2afft/fft.hpp>
#include <a2afft/fft1d.hpp>
#include <a2afft/fft2d.hpp>
#include <a2afft/fft3d.hpp>
#include <a2afft/layout.hpp>
#include <a2afft/transform.hpp>
#include <a2afft/version.hpp>
