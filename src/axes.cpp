// Per-axis transforms (a2afft::AxisKind): their names, and how a plan's options resolve to the
// kind of every axis, checked before anything is planned. The engines run what this decides.

#include "axes.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "axis_kinds.hpp"
#include "error.hpp"

namespace a2afft {
namespace {

struct AxisName {
  AxisKind axis;
  std::string_view name;
  std::string_view fftw_name;  // FFTW's r2r kind, read as a synonym; empty for the others
};

constexpr std::array<AxisName, 11> kAxisNames{{
    {AxisKind::dft, "dft", ""},
    {AxisKind::r2c, "r2c", ""},
    {AxisKind::dct1, "dct1", "redft00"},
    {AxisKind::dct2, "dct2", "redft10"},
    {AxisKind::dct3, "dct3", "redft01"},
    {AxisKind::dct4, "dct4", "redft11"},
    {AxisKind::dst1, "dst1", "rodft00"},
    {AxisKind::dst2, "dst2", "rodft10"},
    {AxisKind::dst3, "dst3", "rodft01"},
    {AxisKind::dst4, "dst4", "rodft11"},
    {AxisKind::none, "none", "skip"},
}};

std::string valid_axis_names() {
  std::string names;
  for (const AxisName& entry : kAxisNames)
    names += (names.empty() ? "" : ", ") + std::string(entry.name);
  return names + " (or FFTW's redft00 ... rodft11)";
}

}  // namespace

std::string to_string(AxisKind axis) {
  for (const AxisName& entry : kAxisNames) {
    if (entry.axis == axis) return std::string(entry.name);
  }
  return "axis kind " + std::to_string(static_cast<int>(axis));
}

std::string to_string(const std::vector<AxisKind>& axes) {
  std::string text;
  for (const AxisKind axis : axes)
    text += (text.empty() ? "" : ",") + to_string(axis);
  return text;
}

std::size_t logical_size(AxisKind axis, std::size_t n) {
  return detail::fft::logical_size(axis, n);
}

std::vector<AxisKind> parse_axis_kinds(const std::string& text) {
  std::vector<AxisKind> axes;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string word = text.substr(start, comma - start);
    bool known = false;
    for (const AxisName& entry : kAxisNames) {
      if (word == entry.name || (!entry.fftw_name.empty() && word == entry.fftw_name)) {
        axes.push_back(entry.axis);
        known = true;
      }
    }
    if (!known) {
      throw UsageError("transform '" + word + "' (in '" + text + "') is not valid; expected " +
                       valid_axis_names() + ", one per axis, comma-separated");
    }
    start = comma + 1;
  }
  return axes;
}

namespace {

// The kind the axes make: r2c with an r2c axis, c2c with a dft one, else r2r.
Kind kind_made_by(const std::vector<AxisKind>& axes) {
  Kind kind = Kind::r2r;
  for (const AxisKind axis : axes) {
    if (axis == AxisKind::r2c) return Kind::r2c;
    if (axis == AxisKind::dft) kind = Kind::c2c;
  }
  return kind;
}

std::string kind_name(Kind kind) {
  return kind == Kind::c2c ? "c2c" : kind == Kind::r2c ? "r2c" : "r2r";
}

// Why `axes` cannot transform an array of `shape`, or "" when they can.
std::string axes_problem(const std::vector<AxisKind>& axes, const std::vector<std::size_t>& shape) {
  const std::string named = "transforms " + to_string(axes);
  if (axes.size() != shape.size()) {
    return named + " name " + std::to_string(axes.size()) + " axes; expected " +
           std::to_string(shape.size()) + ", one per axis of the array, slowest first";
  }
  bool transformed = false;
  for (std::size_t axis = 0; axis < axes.size(); ++axis) {
    if (axes[axis] == AxisKind::r2c && axis + 1 != axes.size()) {
      return named + " put r2c on axis " + std::to_string(axis) +
             "; only the last (contiguous) axis can be r2c";
    }
    if (axes[axis] == AxisKind::dct1 && shape[axis] < 2) {
      return named + ": dct1 (REDFT00) needs at least 2 points, but axis " + std::to_string(axis) +
             " has " + std::to_string(shape[axis]);
    }
    transformed = transformed || axes[axis] != AxisKind::none;
  }
  if (!transformed) return named + " transform no axis; at least one must be other than none";
  return {};
}

}  // namespace

namespace {

// Why `transform`'s padding cannot pad an array of `shape`, or "" when it can.
std::string padding_problem(const Transform& transform, const std::vector<std::size_t>& shape) {
  const std::vector<double>& padding = transform.padding;
  if (padding.empty()) return {};
  const std::string named = "padding " + detail::padding_to_string(padding);
  if (shape.size() < 2) return named + " is not valid; only 3D and 2D plans are padded";
  if (padding.size() != shape.size()) {
    return named + " names " + std::to_string(padding.size()) + " axes; expected " +
           std::to_string(shape.size()) + " factors >= 1, one per axis";
  }
  for (std::size_t axis = 0; axis < padding.size(); ++axis) {
    if (!std::isfinite(padding[axis]) || padding[axis] < 1) {
      return named + " is not valid on axis " + std::to_string(axis) +
             "; every factor must be a number >= 1 (1: not padded)";
    }
    const bool last = axis + 1 == shape.size();
    const AxisKind kind = axis < transform.axes.size()          ? transform.axes[axis]
                          : last && transform.kind == Kind::r2c ? AxisKind::r2c
                                                                : AxisKind::dft;
    if (padding[axis] > 1 && kind != AxisKind::dft && kind != AxisKind::r2c) {
      return named + " pads axis " + std::to_string(axis) + ", which is " +
             to_string(std::vector<AxisKind>{kind}) +
             "; only dft and r2c axes are padded (set its factor to 1)";
    }
  }
  return {};
}

}  // namespace

void check_padding(const Transform& transform, const std::vector<std::size_t>& shape) {
  if (const std::string problem = padding_problem(transform, shape); !problem.empty()) {
    throw UsageError(problem);
  }
}

Kind kind_of_axes(const std::vector<AxisKind>& axes, const std::vector<std::size_t>& shape) {
  if (const std::string problem = axes_problem(axes, shape); !problem.empty()) {
    throw UsageError(problem);
  }
  return kind_made_by(axes);
}

namespace detail {

Transform resolved_transform(const Transform& given, const std::vector<std::size_t>& shape,
                             std::string_view who) {
  Transform transform = given;
  if (given.axes.empty()) {
    transform.axes.assign(shape.size(), AxisKind::dft);
    if (given.kind == Kind::r2c) transform.axes.back() = AxisKind::r2c;
    if (given.kind == Kind::r2r) {
      throw UsageError(std::string(who) +
                       ": kind=r2r is not valid without axes; name each axis's cosine or sine " +
                       "transform (e.g. axes dct2,dct2,dct2)");
    }
  }
  if (const std::string problem = axes_problem(transform.axes, shape); !problem.empty()) {
    throw UsageError(std::string(who) + ": " + problem);
  }
  transform.kind = kind_made_by(transform.axes);
  if (given.kind != Kind::c2c && given.kind != transform.kind) {
    throw UsageError(std::string(who) + ": kind=" + kind_name(given.kind) +
                     " does not fit transforms " + to_string(transform.axes) + ", which make a " +
                     kind_name(transform.kind) + " transform; leave kind c2c or set it to " +
                     kind_name(transform.kind));
  }
  return transform;
}

std::string padding_to_string(const std::vector<double>& padding) {
  std::string text;
  for (const double factor : padding) {
    char word[32];
    // The shortest of %g's precisions that reads back the same factor: 1.5, not 1.50000...
    for (int digits = 1; digits <= 17; ++digits) {
      std::snprintf(word, sizeof word, "%.*g", digits, factor);
      if (std::strtod(word, nullptr) == factor) break;
    }
    text += (text.empty() ? "" : ",") + std::string(word);
  }
  return text;
}

void check_padding(const Transform& transform, const std::vector<std::size_t>& shape,
                   std::string_view who) {
  if (const std::string problem = padding_problem(transform, shape); !problem.empty()) {
    throw UsageError(std::string(who) + ": " + problem);
  }
}

}  // namespace detail
}  // namespace a2afft
