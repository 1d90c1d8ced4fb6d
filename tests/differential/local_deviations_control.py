"""DynamoDB Local's recorded deviations in table control (--workload control: CreateTable,
UpdateTable, DescribeTable, DeleteTable, ListTables, TTL, tags, continuous backups, DescribeLimits,
DescribeEndpoints), taken out of both answers like those of local_deviations.py, so that a run
shows new differences only. Each has a test marked dynamodb_local_deviation in tests/integration
(named by each rule)."""
import re

VE = "ValidationException"
NOT_FOUND = "Cannot do operations on a non-existent table"
INVALID = "One or more parameter values were invalid: "
# "N validation errors detected: a; b" (a Coral constraint violation, or several).
CORAL = re.compile(r"^(?:1 validation error|\d+ validation errors) detected: ")
CORAL_VALUE = r"Value (?:null|'.*') at '%s' failed to satisfy constraint: %s"
REDEFINED = "invalid attribute, SchemaElement redefined should be of same type as previously defined"
NAME_SENTENCE = ("Invalid table/index name.  Table/index names must be between 3 and 255 characters long, and may "
                 "contain only the characters a-z, A-Z, 0-9, '_', '-', and '.'")

# The operations it does not implement: every request is an UnknownOperationException
# (test_tags.py NO_TAGS; test_misc_operations.py test_describe_endpoints,
# test_describe_continuous_backups_new_table, test_point_in_time_recovery_round_trip).
UNSUPPORTED = ("tag_resource", "untag_resource", "list_tags_of_resource", "describe_continuous_backups",
               "update_continuous_backups", "describe_endpoints")


def coral(path, constraint):
    """One Coral violation of the member at `path` (a regex)."""
    return CORAL_VALUE % ("(?:%s)" % path, constraint)


# The checks of CreateTable, UpdateTable, ListTables and UpdateTimeToLive that DynamoDB Local
# words in sentences of its own, in the order in which the service makes them (stage, as in
# /work/notes/errors-foundation.md "Check order": Coral constraints, then PAY_PER_REQUEST with
# units, throughput bounds, PROVISIONED without units, key attributes defined, key schema, empty
# index lists, LSIs, GSIs, index names across both, attribute count, stream, table exists).
# A row: (stage, dynamod's text (the service's; a regex), its text (a regex), the test that
# records it). Its text of a check stands for ours of the same row; of a later stage, for ours of
# an earlier one (it checks in an order of its own: test_create_table_check_order).
CHECKS = [
    (1, r"At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates, .* is required",
     "Nothing to update", "test_update_table_nothing"),
    (0, coral(r"(?:global|local)SecondaryIndexes\.\d+\.member\.projection\.nonKeyAttributes",
              "Member must have length less than or equal to 20"),
     "No more than 20 attributes per table can be projected into Local Secondary Indices",
     "test_create_table_validation[nonkey-21]"),
    (0, coral(r"(?:global|local)SecondaryIndexes\.\d+\.member\.projection\.nonKeyAttributes",
              "Member must have length greater than or equal to 1"),
     "If Projection type INCLUDE is specified, some non-key attributes to include in the projection must be specified as well",
     "test_create_table_validation[nonkey-empty]"),
    # (It accepts units on an on-demand table, and names a later check: ACCEPTED.)
    (1, re.escape(INVALID) + "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST",
     "(?!)", "test_create_table_validation[ppr-with-throughput]"),
    (0, coral(r"tableName|exclusiveStartTableName|(?:global|local)SecondaryIndexes\.\d+\.member\.indexName|"
              r"globalSecondaryIndexUpdates\.\d+\.member\.\w+\.indexName", ".*"),
     re.escape(NAME_SENTENCE), "test_create_table_validation[name-*], test_describe_table_bad_name"),
    (0, coral("keySchema", "Member must (?:not be null|have length greater than or equal to 1)"),
     r"No defined key schema\.  A key schema containing at least a hash key must be defined for all tables",
     "test_create_table_validation[keyschema-missing, keyschema-empty]"),
    (0, coral("keySchema", "Member must have length less than or equal to 2"),
     r"Key Schema too big\.  Key Schema must at most consist of the hash and range key of a table",
     "test_create_table_validation[keyschema-3-elements]"),
    (0, coral(r"keySchema\.\d+\.member\.keyType", r"Member must satisfy enum value set: \[HASH, RANGE\]"),
     r"No Hash Key specified in schema\.  All Dynamo DB tables must have exactly one hash key|Invalid KeySchema.*",
     "test_create_table_validation[keytype-invalid]"),
    (0, coral(r"attributeDefinitions\.\d+\.member\.attributeType", r"Member must satisfy enum value set: \[B, N, S\]"),
     r"Member must satisfy enum value set: \[B, N, S\]", "test_create_table_validation[attrtype-*]"),
    (0, coral("attributeDefinitions", "Member must not be null"), "No Attribute Schema Defined",
     "test_create_table_validation[attrdefs-missing]"),
    (0, coral(r"attributeDefinitions\.\d+\.member\.attributeName", "Member must not be null"),
     r"Attribute name must be specified\.", "test_create_table_validation[attrdef-no-name]"),
    (0, coral(r"provisionedThroughput\.(?:read|write)CapacityUnits",
              "Member must (?:not be null|have value greater than or equal to 1)"),
     "Table read and write throughput must be at least 1, and cannot be null",
     "test_create_table_validation[read-units-0, write-units-missing]"),
    (0, coral(r"(?:global|local)SecondaryIndexes\.\d+\.member\.projection\.projectionType|"
              r"globalSecondaryIndexUpdates\.\d+\.member\.create\.projection\.projectionType",
              r"Member must satisfy enum value set: \[ALL, INCLUDE, KEYS_ONLY\]"),
     "Projection type must be INCLUDE, ALL, or KEYS_ONLY", "test_create_table_validation[gsi-projection-type-invalid]"),
    (0, coral(r"streamSpecification\.streamEnabled", "Member must not be null"), "Stream StreamEnabled was null",
     "test_create_table_stream_validation[no-stream-enabled]"),
    (0, coral("limit", "Member must have value greater than or equal to 1"), "Limit must be greater than or equal to 1",
     "test_list_tables_limit_bounds"),
    (0, coral("limit", "Member must have value less than or equal to 100"), "Limit in ListTables must be <= 100",
     "test_list_tables_limit_bounds"),
    (0, coral(r"(?:(?:global|local)SecondaryIndexes\.\d+\.member|globalSecondaryIndexUpdates\.\d+\.member\.create)"
              r"\.provisionedThroughput\.(?:read|write)CapacityUnits",
              "Member must (?:not be null|have value greater than or equal to 1)"),
     "Global Secondary Index's read and write throughput must be at least 1, and cannot be null",
     "test_create_table_validation[gsi-read-units-0]"),
    (0, coral(r"timeToLiveSpecification\.enabled", "Member must not be null"),
     "AttributeName cannot be null when time to live is being enabled", "test_update_ttl_validation[no-enabled]"),
    (0, coral(r"timeToLiveSpecification\.attributeName", "Member must not be null"),
     "AttributeName cannot be null when time to live is being enabled", "test_update_ttl_validation"),
    (0, coral(r"timeToLiveSpecification\.attributeName", "Member must have length .*"),
     r"Names of key attributes .*", "test_update_ttl_validation"),
    (0, coral("timeToLiveSpecification", "Member must not be null"), "TimeToLiveSpecification cannot be null",
     "test_update_ttl_validation"),
    (2, r"Given value \d+ for (?:Read|Write)CapacityUnits is out of bounds",
     "Cannot increase provisioned throughput to more than 40,000 units per table",
     "test_create_table_validation[read-units-out-of-bounds]"),
    (8, r"Given value \d+ for (?:Read|Write)CapacityUnits is out of bounds",
     "Cannot increase provisioned throughput to more than 40,000 units per global secondary index",
     "test_create_table_validation[gsi-units-out-of-bounds]"),
    (1, re.escape(INVALID) + r"Only one global secondary index update per index is allowed simultaneously\. Index: .*",
     r"Only one global secondary index update per index is allowed simultaneously\.",
     "test_update_table_errors[same-index-twice]"),
    (4, r"Cannot update an index that is not a GlobalSecondaryIndex: .*", "Invalid global secondary index name",
     "test_update_table_errors[update-lsi], test_update_unknown_index_of_provisioned_table"),
    (4, r"Cannot delete an index that is not a GlobalSecondaryIndex: .*",
     "Cannot delete an index that is not a GlobalSecondaryIndex", "test_update_table_errors[delete-lsi]"),
    (4, re.escape(INVALID) + r"Attributes cannot be redefined\. .*",
     re.escape(REDEFINED), "test_create_redefining_key_type"),
    (4, re.escape(INVALID) + "AttributeDefinitions is not specified for index: .*", "No Attribute Schema Defined",
     "test_update_table_errors[create-without-definitions]"),
    (3, INVALID + "ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED|"
     + INVALID + "ProvisionedThroughput must be specified when BillingMode is PROVISIONED",
     "No provisioned throughput specified for the table",
     "test_create_table_validation[provisioned-without-throughput], test_update_table_validation[provisioned-without-units]"),
    (4, re.escape(INVALID) + r"Some index key attributes are not defined in AttributeDefinitions\. .*|"
                             r"Invalid KeySchema: Some index key attribute have no definition",
     r"(?:Hash|Range) Key not specified in Attribute Definitions\..*|Attribute \S+ is not defined in AttributeDefinitions|"
     r"Local Secondary Index range key not specified in Attribute Definitions\..*|"
     r"Two keys can not have the same name|No Attribute Schema Defined",
     "test_create_table_validation[hash-not-defined, range-not-defined, same-key-twice-one-def, gsi-key-not-defined, "
     "lsi-range-not-defined]"),
    (4, re.escape(INVALID) + "Cannot have two attributes with the same name: .*",
     "Cannot have two attributes with the same name", "test_create_table_duplicate_attribute_definition"),
    (5, "Invalid KeySchema: The first KeySchemaElement is not a HASH key type",
     r"No Hash Key specified in schema\.  All Dynamo DB tables must have exactly one hash key|Invalid key order.*",
     "test_create_table_validation[range-only, range-then-hash, gsi-range-first]"),
    (5, "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type", r"Too many hash keys specified.*",
     "test_create_table_validation[hash-hash]"),
    (5, "Both the Hash Key and the Range Key element in the KeySchema have the same name",
     "Two keys can not have the same name", "test_create_table_validation[same-key-twice, gsi-same-key-twice]"),
    (6, re.escape(INVALID) + "List of GlobalSecondaryIndexes is empty", "GSI list is empty/invalid",
     "test_create_table_validation[gsi-list-empty]"),
    (7, re.escape(INVALID) + "Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex",
     "Local Secondary indices are not allowed on hash tables, only hash and range tables",
     "test_create_table_validation[lsi-on-hash-only-table]"),
    (7, re.escape(INVALID) + r"Index KeySchema does not have the same leading hash key as table KeySchema for index: .*",
     "Local Secondary indices must have the same hash key as the main table", "test_create_table_validation[lsi-other-hash]"),
    (7, re.escape(INVALID) + "Index KeySchema does not have a range key for index: .*",
     "Local secondary indices must have a range key", "test_create_table_validation[lsi-without-range]"),
    (7, re.escape(INVALID) + "Number of LocalSecondaryIndexes exceeds per-table limit of 5",
     "Cannot have more than 5 local secondary indexes per table", "test_create_table_validation[lsi-6]"),
    (7, re.escape(INVALID) + "Duplicate index name: .*", "Two local secondary indices have the same name",
     "test_create_table_validation[lsi-duplicate-names]"),
    (8, re.escape(INVALID) + "GlobalSecondaryIndex count exceeds the per-table limit of 20",
     "GlobalSecondaryIndex count exceeds the per-table limit", "test_create_table_validation[gsi-21]"),
    (8, re.escape(INVALID) + "Duplicate index name: .*", "Two global secondary indices have the same name",
     "test_create_table_validation[gsi-duplicate-names]"),
    (8, re.escape(INVALID) + "ProjectionType is (?:ALL|KEYS_ONLY), but NonKeyAttributes is specified",
     "No attributes should be specified to be projected unless projection type is INCLUDE",
     "test_create_table_validation[gsi-all-with-nonkey, gsi-keysonly-with-nonkey]"),
    (8, re.escape(INVALID) + "ProjectionType is INCLUDE, but NonKeyAttributes is not specified",
     "If Projection type INCLUDE is specified, some non-key attributes to include in the projection must be specified as well",
     "test_create_table_validation[gsi-include-without-nonkey]"),
    (8, re.escape(INVALID) + "Unknown ProjectionType: null", "Indexes must have a projection specified",
     "test_create_table_projection_without_type"),
    (8, re.escape(INVALID) + "ProvisionedThroughput must be specified for index: .*",
     "No provisioned throughput specified for the global secondary index",
     "test_create_table_validation[gsi-without-throughput]"),
    (9, re.escape(INVALID) + "Duplicate index name: .*",
     "Local Secondary Indices AND Global Secondary Indices must have different names",
     "test_create_table_validation[lsi-gsi-same-name]"),
    (10, re.escape(INVALID) + r"Number of attributes in KeySchema does not exactly match number of attributes defined "
                              r"in AttributeDefinitions|" + re.escape(INVALID) + r"Some AttributeDefinitions are not used\..*",
     r"The number of attributes in key schema must match the number of attributes defined in attribute definitions\.",
     "test_create_table_validation[unused-attrdef, unused-attrdef-with-gsi]"),
    (1, re.escape(INVALID) + "One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, "
                             "GlobalSecondaryIndexUpdate.Delete must not be null",
     "Update global secondary index action is null", "test_update_table_errors[empty-entry]"),
    (11, re.escape(INVALID) + "You cannot modify stream status while updating table IOPS",
     r"Cannot change IOPS and Streams at the same time\.", "test_update_table_stream_with_throughput"),
    (1, r"The provisioned throughput for the table will not change\. .*",
     "The requested throughput value equals the current value", "test_update_table_same_units"),
    (4, "Attempting to create an index which already exists", "Attempting to create an index which already exists",
     "test_update_table_errors[create-existing-gsi-name]"),
    # (A combination of changes the service refuses before it looks at the stream's state:
    # errors-streams-ttl.md; it names the state.)
    (11, re.escape(INVALID) + "You cannot create or delete index while changing stream status", "(?!)", "ACKQ"),
    (11, re.escape(INVALID) + "If stream is being enabled then UpdateViewType is required",
     r"Invalid StreamViewType: Stream ViewType must not be null or empty when enabling streams\.",
     "test_update_table_stream_validation"),
    (11, re.escape(INVALID) + "If stream is being disabled, then UpdateViewType must not be specified",
     r"Invalid StreamViewType: Stream StreamEnabled was false but a StreamViewType was present\.",
     "test_update_table_stream_validation"),
    # (The TTL's state checks, in the same words: named after the Coral constraints that it does
    # not check, test_update_ttl_validation.)
    (12, "TimeToLive is already (?:enabled|disabled)", "TimeToLive is already (?:enabled|disabled)", "test_ttl.py"),
    (12, r"TimeToLive is active on a different AttributeName: current AttributeName is .*",
     "TimeToLive is active on a different AttributeName", "test_other_attribute_while_enabled"),
    (12, r"Table already has an enabled stream: TableName: .*", "Table already has an enabled stream",
     "test_update_table_stream_validation[enable-again-same-type]"),
    (12, r"Table has no stream to disable: TableName: .*", "Table has no stream to disable",
     "test_update_table_stream_validation[disable-without-stream]"),
    (11, re.escape(INVALID) + "Table is being created with a stream enabled, UpdateViewType is required",
     r"Invalid StreamViewType: Stream ViewType must not be null or empty when enabling streams\.",
     "test_create_table_stream_validation"),
    (11, re.escape(INVALID) + "Table is being created with a stream disabled, UpdateViewType should not be specified",
     r"Invalid StreamViewType: Stream StreamEnabled was false but a StreamViewType was present\.",
     "test_create_table_stream_validation"),
]

# What the service refuses and it accepts (our message, a regex; the test that records it; and, for
# some, the one operation where it does).
ACCEPTED = [
    (re.escape(INVALID) + "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST",
     "test_create_table_validation[ppr-with-throughput], test_update_table_validation[units-on-on-demand-table]"),
    (coral("tableClass", ".*"), "test_create_table_validation[tableclass-invalid]"),
    (re.escape(INVALID) + "List of LocalSecondaryIndexes is empty", "test_create_table_validation[lsi-list-empty]"),
    (r"(?:%s)?ProvisionedThroughput should not be specified for index: .* when BillingMode is PAY_PER_REQUEST" % re.escape(INVALID),
     "test_create_table_validation[gsi-throughput-on-ppr]"),
    (re.escape(INVALID) + "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified for index: .* when "
                          "BillingMode is PAY_PER_REQUEST", "test_ppr_create_with_throughput"),
    (coral(r"streamSpecification\.streamViewType", ".*"), "test_create_table_stream_validation[lowercase-view-type]"),
    (re.escape(INVALID) + "List of GlobalSecondaryIndexUpdates is empty", "test_update_table_empty_index_updates"),
    (coral(r"globalSecondaryIndexUpdates\.\d+\.member\.create\.provisionedThroughput\.(?:read|write)CapacityUnits",
           "Member must not be null"), "test_update_table_validation[gsi-create-half-throughput]", "update_table"),
    ("Time to live has been modified multiple times within a fixed interval", "test_second_change_within_cooldown"),
    (coral(r"keySchema\.\d+\.member\.keyType", r"Member must satisfy enum value set: \[HASH, RANGE\]"),
     "test_create_table_validation[keytype-lowercase]"),
    (coral(r"tags\.\d+\.member\.(?:key|value)", ".*"), "test_create_table_invalid_tag[empty-key]"),
    (re.escape(INVALID) + "Tag keys beginning with 'aws:' are reserved for AWS use: .*",
     "test_create_table_invalid_tag[aws-prefix]", "create_table"),
    (re.escape(INVALID) + "The number of tags on the resource would exceed the limit of 50", "test_create_table_too_many_tags",
     "create_table"),
    (re.escape(INVALID) + r"Some index key attributes are not defined in AttributeDefinitions\. .*|"
                          r"Invalid KeySchema: Some index key attribute have no definition",
     "test_create_key_must_be_in_definitions[table-defines-it]", "update_table"),
    (re.escape(INVALID) + "You cannot modify stream status while updating table IOPS",
     "test_update_table_stream_with_billing_provisioned", "update_table"),
    (re.escape(INVALID) + "You cannot create or delete index while updating table IOPS", "test_delete_index_with_table_units",
     "update_table"),
    (re.escape(INVALID) + "You cannot create or delete index while changing stream status",
     "test_update_table_stream_with_index_change", "update_table"),
    (coral(r"localSecondaryIndexes\.\d+\.member\.projection\.nonKeyAttributes", "Member must have length less than or equal to 20"),
     "test_create_table_validation[lsi-nonkey-21]", "create_table"),
    (coral(r"globalSecondaryIndexes\.\d+\.member\.projection\.nonKeyAttributes", "Member must have length less than or equal to 20"),
     "test_create_table_validation[nonkey-100]", "create_table"),
]


def error_of(answer):
    """(type, message) of an answer that is one error, else None."""
    if isinstance(answer, list) and len(answer) == 1 and "error" in answer[0]:
        return answer[0]["error"], answer[0]["message"] or ""
    return None


def violations(message):
    """A Coral message's violations, each as a message of its own; another message, itself."""
    prefix = CORAL.match(message)
    if not prefix:
        return [message]
    return ["1 validation error detected: " + v for v in message[prefix.end():].split("; ")]


def stage_of(ours):
    """The stage of the first check whose text is one of our message's, or None."""
    if CORAL.match(ours):
        return 0
    for stage, our_text, _, _ in CHECKS:
        if any(re.fullmatch(our_text, CORAL.sub("", text)) for text in violations(ours)):
            return stage
    return None


def same_error(ours, theirs):
    """Whether its message `theirs` stands for our message (both ValidationExceptions)."""
    texts = violations(ours)
    if theirs in texts:
        # It names one of several Coral violations, not all (test_create_table_violations_aggregated).
        return True
    ours_stage = stage_of(ours)
    for stage, our_text, their_text, _ in CHECKS:
        if not re.fullmatch(their_text, theirs):
            continue
        if any(re.fullmatch(our_text, CORAL.sub("", text)) for text in texts):
            return True  # the same check in its own words
        if ours_stage is not None and ours_stage < stage:
            return True  # a later check of its own order (test_create_table_check_order)
    return False


def validated_before_the_table(ours):
    """Whether our ValidationException is one the service gives before it looks the table up: a
    Coral constraint, or an UpdateTable with nothing to change (test_update_missing_table_validation_first)."""
    return bool(CORAL.match(ours)) or ours.startswith("At least one of ProvisionedThroughput, BillingMode")


def accepted(operation, ours):
    """Whether our message is one of a request that it accepts (ACCEPTED)."""
    return len(violations(ours)) == 1 and any(re.fullmatch(row[0], CORAL.sub("", ours)) and row[2:] in ((), (operation,))
                                              for row in ACCEPTED)


def forgive_errors(operation, request, ours, reference):
    mine, theirs = error_of(ours), error_of(reference)
    if operation in UNSUPPORTED and theirs and theirs[0] == "UnknownOperationException":
        return ours, ours
    if theirs is None and mine is None:
        return ours, reference
    if mine is None:
        if theirs == (VE, "Nothing to update") and "TableClass" in request:
            return ours, ours  # It takes no TableClass (test_update_table_class).
        if theirs == (VE, REDEFINED) and operation == "update_table":
            # It refuses another type for an attribute the new index does not use, which the service
            # ignores (dynamod refuses one for the index's keys: test_stale_definition_ignored).
            return ours, ours
        return ours, reference
    if theirs is None:
        if mine[0] == VE and accepted(operation, mine[1]):
            # It accepts what the service refuses (the tests of ACCEPTED); the table it made is
            # dropped by the state comparison.
            return ours, ours
        return ours, reference
    if theirs[0] == "ResourceNotFoundException" and theirs[1] in (NOT_FOUND, "Requested resource not found") and (
            mine[0] == "ResourceNotFoundException" and mine[1].startswith("Requested resource not found")
            or mine[0] == VE and validated_before_the_table(mine[1])):
        # Its text of a missing table (test_describe_missing_table, test_delete_missing_table,
        # test_update_missing_table, test_ttl_missing_table), which it names before the request's
        # constraints (test_update_missing_table_validation_first), or a missing index
        # (test_update_table_errors[delete-unknown]).
        return ours, ours
    if theirs == ("ResourceInUseException", "Cannot create preexisting table") and (
            mine[0] == "ResourceInUseException" and mine[1].startswith("Table already exists: ")
            or mine[0] == VE and (accepted(operation, mine[1]) or stage_of(mine[1]) is not None)):
        # Its text (test_create_existing_table), or the table's existence named before what the
        # service checks first, or what it does not check at all (test_create_table_check_order).
        return ours, ours
    if theirs[0] == "InternalFailure" and mine[0] in (VE, "ResourceNotFoundException") and any(
            "Update" in u or "Create" in u for u in request.get("GlobalSecondaryIndexUpdates") or []):
        # It fails a GSI Update of an unknown index, or of an on-demand table's, and a Create
        # without units or with an undefined key with a 500 (test_update_table_errors[update-unknown,
        # ppr-update-throughput], test_provisioned_create_without_throughput,
        # test_create_key_must_be_in_definitions[unknown]).
        return ours, ours
    if theirs[0] == "InternalFailure" and mine[0] == VE and mine[1].startswith(
            INVALID + "ProvisionedThroughput must be specified for index: ") and request.get("BillingMode") == "PROVISIONED":
        return ours, ours  # a switch to PROVISIONED without units for a GSI (test_switch_to_provisioned_needs_index_units)
    if theirs[0] == "InternalFailure" and (mine[0] == "SerializationException" or re.search(
            r"at '(?:billingMode|globalSecondaryIndexUpdates\.\d+\.member\.create\.projection\.projectionType)'", mine[1])):
        # It fails a value of the wrong JSON type, or a BillingMode outside its enum, with a 500
        # (test_create_table_validation[billing-invalid], test_update_table_bad_billing_mode,
        # test_update_ttl_enabled_not_boolean, test_create_table_deletion_protection_not_boolean).
        return ours, ours
    if mine[0] == VE and CORAL.match(mine[1]) and theirs[0] in ("LimitExceededException", "ResourceInUseException"):
        # The service checks the Coral constraints before the limits and the table's state
        # (test_create_table_violations_aggregated, test_update_missing_table_validation_first).
        return ours, ours
    if theirs == (VE, REDEFINED) and operation == "update_table" and mine[0] == VE:
        return ours, ours  # (test_stale_definition_ignored, as above)
    if mine[0] == theirs[0] == VE and (same_error(mine[1], theirs[1]) or accepted(operation, mine[1])):
        # The same check in its words, or one it does not make at all, so that it names another.
        return ours, ours
    if (theirs == (VE, "Invalid global secondary index name") and mine[0] == "ResourceNotFoundException"
            and mine[1].startswith("Requested resource not found: Index ")):
        return ours, ours  # test_update_unknown_index_of_provisioned_table
    return ours, reference


def description(answer):
    """The table description of a successful answer, or None."""
    if isinstance(answer, list) and len(answer) == 1:
        return answer[0].get("TableDescription") or answer[0].get("Table")
    return None


def forgive_description(operation, mine, theirs):
    """Its table descriptions (each deviation's test named)."""
    if operation in ("update_table", "describe_table") and "AttributeDefinitions" in theirs and sorted(
            theirs["AttributeDefinitions"], key=str) == sorted(mine.get("AttributeDefinitions", []), key=str):
        # Once a table is updated, it lists the definitions in an order of its own (a hash order;
        # the service's is not established): what is defined is compared, not the order.
        theirs["AttributeDefinitions"] = mine["AttributeDefinitions"]
    if "TableId" in mine and "TableId" not in theirs:
        theirs["TableId"] = mine["TableId"]  # test_describe_table_description
    if operation == "delete_table":
        # It answers the full description, ACTIVE (test_delete_table_answer).
        for name in list(theirs):
            if name not in mine:
                del theirs[name]
        if theirs.get("TableStatus") == "ACTIVE" and mine.get("TableStatus") == "DELETING":
            theirs["TableStatus"] = "DELETING"
    if operation == "update_table":
        # It answers ACTIVE while the table changes (test_create_response_table_updating,
        # test_delete_index_response_table_updating, test_update_table_answer_updating), and
        # leaves out at once the key attributes of an index being deleted, which the service's
        # answer still defines (the index is still there, DELETING: test_delete_index_answer).
        if theirs.get("TableStatus") == "ACTIVE" and mine.get("TableStatus") == "UPDATING":
            theirs["TableStatus"] = "UPDATING"
        deleting = {key["AttributeName"] for index in mine.get("GlobalSecondaryIndexes", [])
                    if index.get("IndexStatus") == "DELETING" for key in index["KeySchema"]}
        if deleting and "AttributeDefinitions" in mine and "AttributeDefinitions" in theirs:
            defined = {d["AttributeName"] for d in theirs["AttributeDefinitions"]}
            left = [d for d in mine["AttributeDefinitions"] if d["AttributeName"] in defined or d["AttributeName"] not in deleting]
            if sorted(left, key=str) == sorted(theirs["AttributeDefinitions"], key=str):
                theirs["AttributeDefinitions"] = mine["AttributeDefinitions"]
    if operation == "create_table":
        # It answers ACTIVE at once, its indexes too (test_create_table_description_pay_per_request,
        # test_create_table_answer_indexes_creating).
        if theirs.get("TableStatus") == "ACTIVE" and mine.get("TableStatus") == "CREATING":
            theirs["TableStatus"] = "CREATING"
        for our_index, their_index in zip(mine.get("GlobalSecondaryIndexes", []), theirs.get("GlobalSecondaryIndexes", [])):
            if their_index.get("IndexStatus") == "ACTIVE" and our_index.get("IndexStatus") == "CREATING":
                their_index["IndexStatus"] = "CREATING"
    if "LatestStreamLabel" in theirs and "LatestStreamLabel" not in mine and "StreamSpecification" not in theirs:
        # It gives a table the stream of an earlier table of its name (test_recreated_table_has_no_old_stream).
        del theirs["LatestStreamLabel"]
        theirs.pop("LatestStreamArn", None)
    if "TableClassSummary" in mine and "TableClassSummary" not in theirs:
        theirs["TableClassSummary"] = mine["TableClassSummary"]  # test_create_provisioned_with_class_and_protection
    # It describes no warm throughput, on-demand maximums or SSE key (test_table_settings.py).
    for name in ("WarmThroughput", "OnDemandThroughput", "SSEDescription"):
        if name in mine and name not in theirs:
            theirs[name] = mine[name]
    for our_index, their_index in zip(mine.get("GlobalSecondaryIndexes", []), theirs.get("GlobalSecondaryIndexes", [])):
        for name in ("WarmThroughput", "OnDemandThroughput"):
            if name in our_index and name not in their_index:
                their_index[name] = our_index[name]
    throughput, their_throughput = mine.get("ProvisionedThroughput", {}), theirs.get("ProvisionedThroughput", {})
    if their_throughput.get("NumberOfDecreasesToday") == 0 and throughput.get("NumberOfDecreasesToday", 0) > 0:
        # It never counts a decrease (test_decrease_is_counted).
        their_throughput["NumberOfDecreasesToday"] = throughput["NumberOfDecreasesToday"]
    for name in ("LastIncreaseDateTime", "LastDecreaseDateTime"):
        if name in their_throughput and name not in throughput:
            # It dates a table's units that never changed at 1970 (test_new_table_has_no_throughput_dates).
            del their_throughput[name]
    for our_index, their_index in zip(mine.get("GlobalSecondaryIndexes", []), theirs.get("GlobalSecondaryIndexes", [])):
        ours_units, theirs_units = our_index.get("ProvisionedThroughput"), their_index.get("ProvisionedThroughput")
        if ours_units and ours_units.get("ReadCapacityUnits") == 0 and (
                theirs_units is None or theirs.get("BillingModeSummary", {}).get("BillingMode") == "PAY_PER_REQUEST"):
            # It leaves out an on-demand table's GSI units, or keeps those it had before a switch
            # to on demand (test_gsi_throughput_and_status).
            their_index["ProvisionedThroughput"] = ours_units
        elif ours_units and theirs_units:
            # It leaves out a GSI's NumberOfDecreasesToday (test_gsi_throughput_and_status) and the
            # dates of its changes (test_decrease_is_counted).
            for name in ("NumberOfDecreasesToday", "LastIncreaseDateTime", "LastDecreaseDateTime"):
                if name in ours_units and name not in theirs_units:
                    theirs_units[name] = ours_units[name]
        if operation == "update_table" and their_index.get("IndexStatus") == "CREATING":
            # Its answer to a Create has no counters for the new index (errors-indexes.md;
            # test_create_response_counters).
            for name in ("IndexSizeBytes", "ItemCount"):
                if name in our_index and name not in their_index:
                    their_index[name] = our_index[name]


def forgive_control(operation, request, ours, reference):
    """The control-plane deviations (see forgive_local); returns the two answers."""
    ours, reference = forgive_errors(operation, request, ours, reference)
    mine, theirs = description(ours), description(reference)
    if mine is not None and theirs is not None:
        forgive_description(operation, mine, theirs)
    return ours, reference
