#pragma once
// What every fuzz target does with a call into the library: ApiError is the
// only failure it may report (input the service would refuse); any other
// exception escapes to libFuzzer, which reports it with the input.

#include "protocol/api_error.h"

namespace dynamod::fuzz {

template <typename F>
void guarded(F&& f) {
  try {
    f();
  } catch (const ApiError&) {
    // The only expected failure.
  }
}

}  // namespace dynamod::fuzz
