#pragma once
// Outcome<T>: a result or the ApiError that replaced it. Used where an error
// is a common, expected outcome (failed conditions under load) or must cross
// a thread boundary (the writer thread completing a request).

#include <utility>
#include <variant>

#include "protocol/api_error.h"

namespace dynamod {

template <typename T>
class Outcome {
 public:
  Outcome(T value) : v_(std::in_place_index<0>, std::move(value)) {}
  Outcome(ApiError error) : v_(std::in_place_index<1>, std::move(error)) {}

  bool ok() const { return v_.index() == 0; }
  T& value() { return std::get<0>(v_); }
  const T& value() const { return std::get<0>(v_); }
  ApiError& error() { return std::get<1>(v_); }
  const ApiError& error() const { return std::get<1>(v_); }
  // The value, or the error thrown.
  T take() {
    if (!ok()) throw std::move(error());
    return std::move(value());
  }

 private:
  std::variant<T, ApiError> v_;
};

}  // namespace dynamod
