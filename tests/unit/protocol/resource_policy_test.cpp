// Resource-based policy documents: the canonical form, the refusals, the
// lockout check and the ARNs a policy may be attached to.
#include <doctest/doctest.h>

#include "protocol/api_error.h"
#include "protocol/resource_policy.h"

using namespace dynamod;

namespace {

std::string refusal(std::string_view document) {
  try {
    canonical_policy(document);
  } catch (const ApiError& e) {
    return e.message();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("the canonical form: members in order, lists of one as strings, account ids as root ARNs") {
  const std::string scrambled = R"({
    "Statement": {"Resource": ["arn:aws:dynamodb:us-east-1:111122223333:table/t"],
                  "Condition": {"Bool": {"aws:SecureTransport": "true"}},
                  "Action": ["dynamodb:GetItem"], "Effect": "allow",
                  "Principal": {"AWS": ["111122223333", "arn:aws:iam::111122223333:root"]}, "Sid": "s1"},
    "Version": "2012-10-17"})";
  CHECK(canonical_policy(scrambled).document ==
        R"({"Version":"2012-10-17","Statement":[{"Sid":"s1","Effect":"Allow","Principal":{"AWS":)"
        R"("arn:aws:iam::111122223333:root"},"Action":"dynamodb:GetItem","Resource":)"
        R"("arn:aws:dynamodb:us-east-1:111122223333:table/t","Condition":{"Bool":{"aws:SecureTransport":"true"}}}]})");
  // Lists of more keep their order and repeats; a canonical document is its own canonical form.
  const std::string two = R"({"Version":"2008-10-17","Statement":[{"Effect":"Deny","Principal":{"AWS":)"
                          R"("arn:aws:iam::111122223333:root"},"NotAction":["dynamodb:Query","dynamodb:Scan",)"
                          R"("dynamodb:Query"],"Resource":"*"}]})";
  CHECK(canonical_policy(two).document == two);
}

TEST_CASE("a missing Version is kept missing, and answered as 2008-10-17") {
  const std::string doc =
      canonical_policy(
          R"({"Statement":[{"Effect":"Deny","Principal":"*","Action":"dynamodb:DeleteTable","Resource":"*"}]})")
          .document;
  CHECK(doc == R"({"Statement":[{"Effect":"Deny","Principal":"*","Action":"dynamodb:DeleteTable","Resource":"*"}]})");
  CHECK(policy_as_answered(doc) ==
        R"({"Version":"2008-10-17","Statement":[{"Effect":"Deny","Principal":"*","Action":"dynamodb:DeleteTable",)"
        R"("Resource":"*"}]})");
  CHECK(policy_as_answered(canonical_policy(R"({"Version":"2012-10-17","Statement":[{"Effect":"Deny",)"
                                            R"("Principal":"*","Action":"x:y","Resource":"*"}]})")
                               .document)
            .rfind(R"({"Version":"2012-10-17",)", 0) == 0);
}

TEST_CASE("documents the service refuses") {
  const std::string invalid = "One or more parameter values were invalid: Invalid policy document: ";
  CHECK(refusal(R"({"Statement":[{"Effect":"Allow","Principal":{"AWS":"1"},"Action":"a"}]})") ==
        invalid + "Missing required field Resource");
  CHECK(refusal(R"({"Statement":[{"Principal":{"AWS":"1"},"Action":"a","Resource":"r"}]})") ==
        invalid + "Missing required field Effect");
  CHECK(refusal(R"({"Statement":[{"Sid":"x","Effect":"Deny","Principal":"*","Action":"a","Resource":"r"},)"
                R"({"Sid":"x","Effect":"Deny","Principal":"*","Action":"b","Resource":"r"}]})") ==
        invalid + "The Statement Ids in the policy are not unique");
  CHECK(refusal(R"({"Statement":[{"Effect":"Allow","Principal":{"AWS":["1","*"]},"Action":"a","Resource":"r"}]})") ==
        "Resource-based policy grants unbounded access in one or more elements. Please revise the policy to ensure "
        "least-privilege form of access");
  // A condition may bound an Allow to everyone.
  CHECK(refusal(R"({"Statement":[{"Effect":"Allow","Principal":"*","Action":"a","Resource":"r",)"
                R"("Condition":{"StringEquals":{"aws:PrincipalAccount":"111122223333"}}}]})") == "accepted");
  CHECK(refusal("not json").rfind(invalid, 0) == 0);
  CHECK(refusal(std::string(20481, ' ')) ==
        "One or more parameter values were invalid: Maximum policy size of 20480 bytes exceeded");
}

TEST_CASE("a Deny of PutResourcePolicy to everyone locks the writer out") {
  auto denies = [](std::string_view action) {
    return canonical_policy(std::string(R"({"Statement":[{"Effect":"Deny","Principal":"*",)") + R"("Action":")" +
                            std::string(action) + R"(","Resource":"*"}]})")
        .denies_policy_updates;
  };
  CHECK(denies("dynamodb:PutResourcePolicy"));
  CHECK(denies("dynamodb:*ResourcePolicy"));
  CHECK(denies("DynamoDB:*"));
  CHECK(denies("*"));
  CHECK_FALSE(denies("dynamodb:DeleteResourcePolicy"));
  CHECK_FALSE(denies("dynamodb:Put?tem"));
}

TEST_CASE("a policy's resource is a table or one of its streams") {
  auto table = parse_policy_resource("arn:aws:dynamodb:eu-west-1:111122223333:table/Music");
  REQUIRE(table);
  CHECK(table->table == "Music");
  CHECK(table->stream_label.empty());
  auto stream =
      parse_policy_resource("arn:aws:dynamodb:eu-west-1:111122223333:table/Music/stream/2026-12-01T10:00:00.000");
  REQUIRE(stream);
  CHECK(stream->stream_label == "2026-12-01T10:00:00.000");
  CHECK_FALSE(parse_policy_resource("Music"));
  CHECK_FALSE(parse_policy_resource("arn:aws:dynamodb:eu-west-1:111122223333:table/Music/index/by_x"));
  CHECK_FALSE(parse_policy_resource("arn:aws:dynamodb:eu-west-1:111122223333:table/Music/stream/"));
}
