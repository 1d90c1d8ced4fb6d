#pragma once
// Resource-based policies (PutResourcePolicy, GetResourcePolicy,
// DeleteResourcePolicy, CreateTable's ResourcePolicy): the policy document's
// checks and the canonical form the service keeps, and the requests.
//
// The service keeps a document in a canonical form and answers it from
// GetResourcePolicy: minified, members in the order Version, Id, Statement
// and Sid, Effect, Principal, Action, Resource, Condition; a statement object
// as a list of one; one-element Action, Resource and principal lists as
// strings; principal lists without repeats; an account id as its root ARN;
// Effect capitalised; a missing Version read as 2008-10-17 (probes of the
// service in 2026, ack-api-quirks DDB-TABLE-208, 351-355). Two documents with
// the same canonical form are one policy (a second Put is no change), except
// that a missing Version differs from an explicit one.
//
// dynamod keeps policies and answers them as the service does; it does not
// enforce them (it has no IAM principals to evaluate them against).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/json_reader.h"

namespace dynamod {

// The service's largest policy document, whitespace counted.
inline constexpr std::size_t kMaxPolicyBytes = 20480;

// The canonical form of a submitted document (without a Version when it had
// none); throws the service's ValidationException for a document it refuses:
// one that is no JSON object, or too large; a statement without Effect,
// Principal, Action or Resource (or their Not forms); repeated Sids; an Allow
// to everyone without a Condition. (IAM's checks that principals exist and
// that actions fit the resource are not made.) It also tells whether the
// document denies everyone, unconditionally, dynamodb:PutResourcePolicy: the
// policy would lock its writer out, so the service wants
// ConfirmRemoveSelfResourceAccess. (The service also simulates the caller
// against conditions and named principals; dynamod cannot.)
struct CanonicalPolicy {
  std::string document;
  bool denies_policy_updates = false;
};
CanonicalPolicy canonical_policy(std::string_view document);

// The document as GetResourcePolicy answers it: the canonical form with the
// default Version when it has none.
std::string policy_as_answered(const std::string& canonical);

struct PutResourcePolicyRequest {
  std::string resource_arn;
  std::string policy;
  std::optional<std::string> expected_revision_id;  // "NO_POLICY": only if there is none
  bool confirm_remove_self_resource_access = false;
};

struct ResourceArnRequest {  // GetResourcePolicy, DeleteResourcePolicy
  std::string resource_arn;
  std::optional<std::string> expected_revision_id;  // DeleteResourcePolicy only
};

// Each throws the service's ValidationException (or SerializationException
// for a value of the wrong JSON type).
PutResourcePolicyRequest decode_put_resource_policy(json::object body);
ResourceArnRequest decode_get_resource_policy(json::object body);
ResourceArnRequest decode_delete_resource_policy(json::object body);

// What a policy's ResourceArn names: a table, or one of its streams (by label).
struct PolicyResource {
  std::string region;
  std::string account;
  std::string table;
  std::string stream_label;  // empty: the table itself
};
std::optional<PolicyResource> parse_policy_resource(std::string_view arn);

}  // namespace dynamod
