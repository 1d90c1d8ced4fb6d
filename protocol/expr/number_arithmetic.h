#pragma once
// Exact decimal addition and subtraction of DynamoDB numbers, for
// UpdateExpression's + and - and for ADD. A result that needs more than 38
// significant digits, or is out of range, is the service's error (it reports
// "Number overflow..." even for lost precision, e.g. 1e50 + 1).

#include "protocol/number.h"

namespace dynamod::expr {

Number add_numbers(const Number& a, const Number& b);       // throws ApiError
Number subtract_numbers(const Number& a, const Number& b);  // throws ApiError

}  // namespace dynamod::expr
