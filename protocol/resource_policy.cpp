#include "protocol/resource_policy.h"

#include <simdjson.h>

#include <cctype>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

#include "protocol/api_error.h"
#include "protocol/item_requests.h"
#include "protocol/json_writer.h"
#include "protocol/table_requests.h"

namespace dynamod {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

constexpr std::string_view kInvalid = "One or more parameter values were invalid: ";
constexpr std::string_view kDefaultVersion = "2008-10-17";

[[noreturn]] void invalid_document(std::string_view why) {
  throw ApiError::validation(std::string(kInvalid) + "Invalid policy document: " + std::string(why));
}

std::string text_of(element e) { return std::string(std::string_view(e)); }

// A string or a list of strings (Action, Resource, a principal's ids): a list
// of one is written as its string; `rewrite` maps each string first, and
// `unique` drops repeats (principals).
template <typename Rewrite>
void write_string_or_list(JsonWriter& out, element value, std::string_view field, Rewrite rewrite, bool unique) {
  std::vector<std::string> items;
  if (value.type() == element_type::STRING) {
    items.push_back(rewrite(text_of(value)));
  } else if (value.type() == element_type::ARRAY) {
    std::set<std::string> seen;
    for (element item : simdjson::dom::array(value)) {
      if (item.type() != element_type::STRING) invalid_document("Invalid " + std::string(field));
      std::string text = rewrite(text_of(item));
      if (!unique || seen.insert(text).second) items.push_back(std::move(text));
    }
  }
  if (items.empty()) invalid_document("Invalid " + std::string(field));
  if (items.size() == 1) {
    out.string(items.front());
    return;
  }
  out.begin_array();
  for (const auto& item : items) out.string(item);
  out.end_array();
}

std::string same(std::string text) { return text; }

bool is_account_id(std::string_view text) {
  return text.size() == 12 && text.find_first_not_of("0123456789") == std::string_view::npos;
}

// IAM's action wildcards, case-insensitively: * any run, ? one character.
bool action_matches(std::string_view pattern, std::string_view action) {
  auto same = [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  };
  std::size_t p = 0, a = 0, star = std::string_view::npos, mark = 0;
  while (a < action.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || same(pattern[p], action[a]))) {
      ++p;
      ++a;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = a;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      a = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

// Whom a principal names: everyone of any kind, and everyone as an AWS principal.
struct Everyone {
  bool any = false;
  bool aws = false;
};

// Writes a Principal (or NotPrincipal).
Everyone write_principal(JsonWriter& out, element principal, std::string_view field) {
  if (principal.type() == element_type::STRING) {
    // Only "*" may stand alone; an account id must be inside {"AWS": ...}.
    if (std::string_view(principal) != "*") invalid_document("Invalid principal in policy document");
    out.string("*");
    return {true, true};
  }
  if (principal.type() != element_type::OBJECT) invalid_document("Invalid " + std::string(field));
  Everyone everyone;
  out.begin_object();
  for (simdjson::dom::key_value_pair member : object(principal)) {
    // (Named, not a structured binding: the lambda captures it, which clang 15 refuses.)
    const std::string_view kind = member.key;
    out.key(kind);
    auto rewrite = [&](std::string id) {
      if (id == "*") everyone.any = true;
      if (id == "*" && kind == "AWS") everyone.aws = true;
      return kind == "AWS" && is_account_id(id) ? "arn:aws:iam::" + id + ":root" : id;
    };
    write_string_or_list(out, member.value, field, rewrite, true);
  }
  out.end_object();
  return everyone;
}

using Member = std::optional<element>;

bool is_string(const Member& m) { return m && m->is_string(); }
bool is_list_or_string(const Member& m) { return m && (m->is_string() || m->is_array()); }

// One statement, members in the canonical order. Sets `locks_out` when it
// denies everyone, unconditionally, dynamodb:PutResourcePolicy.
void write_statement(JsonWriter& out, object statement, std::set<std::string>& sids, bool& locks_out) {
  Member sid, effect, principal, not_principal, action, not_action, resource, not_resource, condition;
  for (auto [key, value] : statement) {
    if (key == "Sid") sid = value;
    else if (key == "Effect") effect = value;
    else if (key == "Principal") principal = value;
    else if (key == "NotPrincipal") not_principal = value;
    else if (key == "Action") action = value;
    else if (key == "NotAction") not_action = value;
    else if (key == "Resource") resource = value;
    else if (key == "NotResource") not_resource = value;
    else if (key == "Condition") condition = value;
    else invalid_document("Unknown field " + std::string(key));
  }
  out.begin_object();
  if (is_string(sid)) {
    if (!sids.insert(text_of(*sid)).second) invalid_document("The Statement Ids in the policy are not unique");
    out.key("Sid");
    out.string(std::string_view(*sid));
  }
  if (!is_string(effect)) invalid_document("Missing required field Effect");
  std::string effect_text = text_of(*effect);
  for (char& c : effect_text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (effect_text != "allow" && effect_text != "deny") invalid_document("Invalid effect: " + text_of(*effect));
  const bool allow = effect_text == "allow";
  out.key("Effect");
  out.string(allow ? "Allow" : "Deny");
  Everyone everyone;
  if (principal) {
    out.key("Principal");
    everyone = write_principal(out, *principal, "Principal");
  } else if (not_principal) {
    out.key("NotPrincipal");
    write_principal(out, *not_principal, "NotPrincipal");
  } else {
    invalid_document("Missing required field Principal");
  }
  bool denies_policy_writes = false;
  auto note_action = [&](std::string text) {
    if (action_matches(text, "dynamodb:PutResourcePolicy")) denies_policy_writes = !allow;
    return text;
  };
  // Action or NotAction, Resource or NotResource: one of each is required.
  for (auto [field, member, negated, negated_member] :
       {std::tuple{"Action", &action, "NotAction", &not_action},
        std::tuple{"Resource", &resource, "NotResource", &not_resource}}) {
    if (is_list_or_string(*member)) {
      out.key(field);
      if (member == &action) write_string_or_list(out, **member, field, note_action, false);
      else write_string_or_list(out, **member, field, same, false);
    } else if (is_list_or_string(*negated_member)) {
      out.key(negated);
      write_string_or_list(out, **negated_member, negated, same, false);
    } else {
      invalid_document("Missing required field " + std::string(field));
    }
  }
  const bool conditioned = condition && condition->is_object();
  if (conditioned) {
    out.key("Condition");
    out.raw(simdjson::to_string(*condition));
  }
  out.end_object();
  if (denies_policy_writes && everyone.aws && !conditioned) locks_out = true;
  // A DynamoDB guardrail, not IAM's grammar: an Allow to everyone, unconditioned.
  if (allow && everyone.any && !conditioned) {
    throw ApiError::validation(
        "Resource-based policy grants unbounded access in one or more elements. Please revise the policy to ensure "
        "least-privilege form of access");
  }
}

}  // namespace

CanonicalPolicy canonical_policy(std::string_view document) {
  if (document.size() > kMaxPolicyBytes) {
    throw ApiError::validation(std::string(kInvalid) + "Maximum policy size of " + std::to_string(kMaxPolicyBytes) +
                               " bytes exceeded");
  }
  simdjson::dom::parser parser;
  element root;
  if (parser.parse(simdjson::padded_string(document)).get(root) != simdjson::SUCCESS || !root.is_object()) {
    invalid_document("Syntax errors in policy");
  }
  Member version, id, statement;
  for (auto [key, value] : object(root)) {
    if (key == "Version") version = value;
    else if (key == "Id") id = value;
    else if (key == "Statement") statement = value;
    else invalid_document("Unknown field " + std::string(key));
  }
  JsonWriter out;
  out.begin_object();
  if (version) {
    std::string_view v = version->is_string() ? std::string_view(*version) : std::string_view();
    if (v != "2012-10-17" && v != "2008-10-17") invalid_document("Invalid Version");
    out.key("Version");
    out.string(v);
  }
  if (is_string(id)) {
    out.key("Id");
    out.string(std::string_view(*id));
  }
  std::vector<object> statements;
  if (statement && statement->is_object()) {
    statements.push_back(*statement);
  } else if (statement && statement->is_array()) {
    for (element s : simdjson::dom::array(*statement)) {
      if (!s.is_object()) invalid_document("Invalid Statement");
      statements.push_back(s);
    }
  }
  if (statements.empty()) invalid_document("Missing required field Statement");
  out.key("Statement");
  out.begin_array();
  std::set<std::string> sids;
  bool locks_out = false;
  for (object s : statements) write_statement(out, s, sids, locks_out);
  out.end_array();
  out.end_object();
  return {out.take(), locks_out};
}

std::string policy_as_answered(const std::string& canonical) {
  if (canonical.rfind("{\"Version\":", 0) == 0) return canonical;
  return "{\"Version\":\"" + std::string(kDefaultVersion) + "\"," + canonical.substr(1);
}

namespace {

constexpr std::string_view kNotNull = "Member must not be null";

void check_resource_arn(const std::optional<std::string>& arn, ConstraintErrors& errors) {
  if (!arn) errors.add_null("resourceArn", kNotNull);
  else if (arn->empty()) errors.add("", "resourceArn", "Member must have length greater than or equal to 1");
  else if (arn->size() > 1283) errors.add(*arn, "resourceArn", "Member must have length less than or equal to 1283");
}

void check_revision_id(const std::optional<std::string>& id, ConstraintErrors& errors) {
  if (!id) return;
  if (id->empty()) errors.add("", "expectedRevisionId", "Member must have length greater than or equal to 1");
  else if (id->size() > 255) errors.add(*id, "expectedRevisionId", "Member must have length less than or equal to 255");
}

ResourceArnRequest decode_resource_arn_request(json::object body, bool takes_revision) {
  std::optional<std::string> arn;
  std::optional<std::string> revision;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "ResourceArn") arn = decode::optional_string(value);
    else if (takes_revision && key == "ExpectedRevisionId") revision = decode::optional_string(value);
  }
  ConstraintErrors errors;
  check_resource_arn(arn, errors);
  check_revision_id(revision, errors);
  errors.throw_if_any();
  return {std::move(*arn), std::move(revision)};
}

}  // namespace

PutResourcePolicyRequest decode_put_resource_policy(json::object body) {
  std::optional<std::string> arn;
  std::optional<std::string> policy;
  PutResourcePolicyRequest r;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "ResourceArn") arn = decode::optional_string(value);
    else if (key == "Policy") policy = decode::optional_string(value);
    else if (key == "ExpectedRevisionId") r.expected_revision_id = decode::optional_string(value);
    else if (key == "ConfirmRemoveSelfResourceAccess")
      r.confirm_remove_self_resource_access = decode::optional_bool(value);
  }
  ConstraintErrors errors;
  check_resource_arn(arn, errors);
  if (!policy) errors.add_null("policy", kNotNull);
  check_revision_id(r.expected_revision_id, errors);
  errors.throw_if_any();
  r.resource_arn = std::move(*arn);
  r.policy = std::move(*policy);
  return r;
}

ResourceArnRequest decode_get_resource_policy(json::object body) { return decode_resource_arn_request(body, false); }
ResourceArnRequest decode_delete_resource_policy(json::object body) { return decode_resource_arn_request(body, true); }

std::optional<PolicyResource> parse_policy_resource(std::string_view arn) {
  constexpr std::string_view kStream = "/stream/";
  std::size_t stream_at = arn.find(kStream);
  std::optional<TableArn> table = parse_table_arn(arn.substr(0, stream_at));
  if (!table) return std::nullopt;
  PolicyResource r{std::string(table->region), std::string(table->account), std::string(table->name), ""};
  if (stream_at != std::string_view::npos) {
    r.stream_label = std::string(arn.substr(stream_at + kStream.size()));
    if (r.stream_label.empty() || r.stream_label.find('/') != std::string::npos) return std::nullopt;
  }
  return r;
}

}  // namespace dynamod
