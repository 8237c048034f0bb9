#include "reshaped_engine.hpp"

#include <algorithm>

namespace a2afft::detail {
namespace {

class ReshapedEngine final : public FftEngine {
 public:
  struct Side {
    Box3 box;                             // the application's
    std::unique_ptr<fft::Reshape> there;  // forward's direction
    std::unique_ptr<fft::Reshape> back;   // backward's
    ExchangeBuffer staging;               // the engine's box, where a reshape runs
  };

  ReshapedEngine(std::unique_ptr<FftEngine> inner, Side input, Side output, SideBytes bytes)
      : inner_(std::move(inner)),
        input_(std::move(input)),
        output_(std::move(output)),
        bytes_(bytes) {}

  void forward(const void* in, void* out) override {
    const void* from = reshaped(input_.there.get(), in, input_.staging);
    void* to = output_.there ? output_.staging.data() : out;
    inner_->forward(from, to);
    if (output_.there) output_.there->run(output_.staging.data(), static_cast<std::byte*>(out));
  }
  void backward(const void* in, void* out) override {
    const void* from = reshaped(output_.back.get(), in, output_.staging);
    void* to = input_.back ? input_.staging.data() : out;
    inner_->backward(from, to);
    if (input_.back) input_.back->run(input_.staging.data(), static_cast<std::byte*>(out));
  }
  Box3 input_box() const override { return input_.box; }
  Box3 output_box() const override { return output_.box; }
  std::size_t input_scalars() const override { return input_.box.elements() * bytes_.batch; }
  std::size_t output_scalars() const override { return output_.box.elements() * bytes_.batch; }
  // In units of one output scalar, as the inner engine counts them.
  std::size_t in_place_elements() const override {
    const std::size_t bytes =
        std::max(input_.box.elements() * bytes_.input, output_.box.elements() * bytes_.output);
    return (bytes + bytes_.in_place_unit - 1) / bytes_.in_place_unit;
  }
  std::size_t workspace_bytes() const override;
  TransformTraffic traffic(bool backward) const override { return inner_->traffic(backward); }
  std::string describe() const override;

 private:
  // `array` reshaped into `staging` by `reshape`, or `array` itself where there is none.
  static const void* reshaped(fft::Reshape* reshape, const void* array, ExchangeBuffer& staging) {
    if (reshape == nullptr) return array;
    reshape->run(static_cast<const std::byte*>(array), staging.data());
    return staging.data();
  }

  std::unique_ptr<FftEngine> inner_;
  Side input_;
  Side output_;
  SideBytes bytes_;
};

std::size_t ReshapedEngine::workspace_bytes() const {
  std::size_t bytes = inner_->workspace_bytes() + input_.staging.size() + output_.staging.size();
  for (const Side* side : {&input_, &output_}) {
    for (const fft::Reshape* reshape : {side->there.get(), side->back.get()}) {
      if (reshape != nullptr) bytes += reshape->workspace_bytes();
    }
  }
  return bytes;
}

std::string ReshapedEngine::describe() const {
  const auto name = [](const Side& side) {
    return side.there ? side.there->describe() : std::string("-");
  };
  return inner_->describe() + ",reshape=in:" + name(input_) + ";out:" + name(output_);
}

// One side's reshapes between the application's box (`wanted`) and the engine's (`own`), both
// ways, and the staging array on the engine's side; none where the boxes agree on every rank.
ReshapedEngine::Side side_of(const Topology& topology, const fft::Shape3& shape, const Box3& own,
                             const std::optional<Box3>& wanted, std::size_t bytes_per_point,
                             bool is_input, const Spec& exchange, PhaseTimer* timer) {
  ReshapedEngine::Side side{wanted.value_or(own), nullptr, nullptr, {}};
  if (!wanted) return side;
  const char* name = is_input ? "input" : "output";
  const char* engine = is_input ? "plan's input" : "plan's output";
  auto to_engine = std::make_unique<fft::Reshape>(topology, shape, *wanted, own, bytes_per_point,
                                                  exchange, name, engine);
  if (to_engine->is_identity()) return side;
  auto from_engine = std::make_unique<fft::Reshape>(topology, shape, own, *wanted, bytes_per_point,
                                                    exchange, engine, name);
  to_engine->attach_timer(timer);
  from_engine->attach_timer(timer);
  // Forward moves the input to the engine and the output from it; backward the reverse.
  side.there = is_input ? std::move(to_engine) : std::move(from_engine);
  side.back = is_input ? std::move(from_engine) : std::move(to_engine);
  side.staging = allocate_aligned(std::max<std::size_t>(1, own.elements() * bytes_per_point));
  return side;
}

}  // namespace

std::unique_ptr<FftEngine> with_reshapes(std::unique_ptr<FftEngine> inner, const Topology& topology,
                                         const fft::Shape3& shape, const fft::Shape3& spectrum,
                                         const std::optional<Box3>& input,
                                         const std::optional<Box3>& output, SideBytes bytes,
                                         const Spec& exchange, PhaseTimer* timer) {
  if (!input && !output) return inner;
  if (timer != nullptr) timer->add("reshape", 0.0);
  ReshapedEngine::Side in =
      side_of(topology, shape, inner->input_box(), input, bytes.input, true, exchange, timer);
  ReshapedEngine::Side out = side_of(topology, spectrum, inner->output_box(), output, bytes.output,
                                     false, exchange, timer);
  return std::make_unique<ReshapedEngine>(std::move(inner), std::move(in), std::move(out), bytes);
}

}  // namespace a2afft::detail
