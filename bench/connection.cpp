#include "bench/connection.h"

#include <stdexcept>

namespace dynamod::bench {

tcp::endpoint resolve(const Options& o) {
  return tcp::endpoint(asio::ip::make_address(o.host), static_cast<std::uint16_t>(o.port));
}

void check_signing(const Options& o, WorkloadKind kind, Signer& signer) {
  if (kind == WorkloadKind::RawGet) return;
  Rng rng(o.seed);
  OperationSet ops(kind, o.shape, signer, o.host_header());
  for (int i = 0; i < 3; ++i) {
    Operation& op = ops.next(rng);
    op.request.sign(signer);
    if (std::string why = check_signature(op.request.wire(), o.secret_key); !why.empty()) {
      throw std::runtime_error("self-check of SigV4 signing failed: " + why);
    }
  }
}

asio::awaitable<Call> call(Connection& c, Signer& signer, const Options& o, std::string_view operation,
                           std::string_view body) {
  signer.tick();
  SignedRequest request(signer, o.host_header(), std::string("DynamoDB_20120810.") + std::string(operation), body);
  Call result;
  result.status = co_await c.exchange(request.wire());
  if (result.status == 0) {
    result.error_type = c.error();
    co_return result;
  }
  result.body = c.body();
  if (result.status != 200) {
    result.error_type = std::string(error_type_of(result.body));
    if (result.error_type.empty()) result.error_type = "HTTP " + std::to_string(result.status);
  }
  co_return result;
}

}  // namespace dynamod::bench
