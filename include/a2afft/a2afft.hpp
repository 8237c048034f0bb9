#pragma once

// a2afft's public C++ API, all of it: include this one header and link a2afft::a2afft (CMake)
// or `pkg-config --cflags --libs a2afft`.

#include <a2afft/backends.hpp>
#include <a2afft/buffer.hpp>
#include <a2afft/error.hpp>
#include <a2afft/exchange.hpp>
#include <a2afft/fft.hpp>
#include <a2afft/fft1d.hpp>
#include <a2afft/fft2d.hpp>
#include <a2afft/fft3d.hpp>
#include <a2afft/fft_tools.hpp>
#include <a2afft/layout.hpp>
#include <a2afft/model.hpp>
#include <a2afft/roofline.hpp>
#include <a2afft/timing.hpp>
#include <a2afft/topology.hpp>
#include <a2afft/verify.hpp>
#include <a2afft/version.hpp>
