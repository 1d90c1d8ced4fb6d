"""DynamoDB Local's recorded deviations from the documented service, taken out of both answers
before they are compared, so that a run shows new differences only. Each one has a test marked
dynamodb_local_deviation in tests/integration that states the service's behaviour."""
import decimal
import re

from local_deviations_partiql import forgive_partiql


def canonical_numbers(value):
    """Every number of an answer in the service's canonical text."""
    if isinstance(value, list):
        return [canonical_numbers(member) for member in value]
    if not isinstance(value, dict):
        return value
    out = {}
    for name, member in value.items():
        if name == "N" and isinstance(member, str):
            out[name] = plain(member)
        elif name == "NS" and isinstance(member, list):
            out[name] = sorted(plain(n) for n in member)
        else:
            out[name] = canonical_numbers(member)
    return out


def plain(number):
    """A number's text as the service returns it: plain decimal, no trailing zeros."""
    context = decimal.Context(prec=60, Emax=999, Emin=-999)
    value = decimal.Decimal(number)
    if value == 0:
        return "0"
    return format(value.normalize(context), "f")


def forgive_local(shape, operation, request, ours, reference, before=(), after=(), answered=None):
    """DynamoDB Local's recorded deviations from the documented service (each has a test marked
    dynamodb_local_deviation in tests/integration), taken out of both answers so that the
    comparison shows new differences only. `before`, `after`: the items a write names (in the
    order of its request), as dynamod holds them before and after it; `answered`: with the items
    a write left, the answer both servers gave it. Returns the two answers (changed in place, or
    dynamod's replaced by the reference's)."""
    def pages(answer):
        if isinstance(answer, dict):
            # An answer whose pages were put together (a Scan, an index Query), and its pages.
            return [answer] + answer.get("Pages", [])
        return [page for page in answer if "error" not in page]

    if operation.split(" ")[0] in ("execute_statement", "batch_execute_statement", "execute_transaction"):
        ours, reference = forgive_partiql(operation, request, ours, reference, answered)

    for page in pages(ours):
        # It returns no ItemCollectionMetrics (test_lsi.py).
        page.pop("ItemCollectionMetrics", None)
    if operation == "delete_item" and request.get("ReturnConsumedCapacity", "NONE") == "NONE":
        # It returns ConsumedCapacity, unasked, for a DeleteItem of a missing item (test_consumed_capacity.py).
        for page in pages(reference):
            page.pop("ConsumedCapacity", None)
    # (A type mismatch on an LSI key that it lets through shows as an update it accepts and dynamod
    # refuses: test_lsi.py, by_update.)
    every_page = ([ours] if isinstance(ours, dict) else ours) + ([reference] if isinstance(reference, dict) else reference)
    for page in every_page:
        # It keeps the text of a number inside a list or map, and of one an update writes, as sent
        # ("1.50", "1E+2"; test_items.py, test_update_item.py); dynamod stores numbers, not text.
        for name in ("Item", "Attributes", "Items", "item", "Responses", "reasons"):
            if page.get(name):
                page[name] = canonical_numbers(page[name])
    both = isinstance(ours, list) and isinstance(reference, list)
    for our_page, their_page in zip(ours if both else [], reference if both else []):
        our_text, their_text = str(our_page.get("message")), str(their_page.get("message"))
        # Of three or more paths, it names another pair than the first one overlapping (known,
        # /work/notes/expressions.md: a hash-ordered walk); the text before the paths agrees.
        overlap = "Two document paths overlap with each other"
        if overlap in our_text and overlap in their_text:
            our_page["message"] = our_text.split("; path one:")[0]
            their_page["message"] = their_text.split("; path one:")[0]
        # It cuts the index key type mismatch short, or says "Invalid attribute value type" for a
        # set or document (/work/notes/errors-foundation.md).
        mismatch = "One or more parameter values were invalid: Type mismatch for Index Key"
        if our_text.startswith(mismatch) and their_text in (mismatch, "Invalid attribute value type"):
            their_page["message"] = our_text
        for our_reason, their_reason in zip(our_page.get("reasons") or [], their_page.get("reasons") or []):
            if (str(our_reason.get("Message")).startswith(mismatch)
                    and their_reason.get("Message") in (mismatch, "Invalid attribute value type")):
                their_reason["Message"] = our_reason["Message"]
        # Arithmetic that needs more than 38 digits overflows in the service (alternator, on
        # AWS); it says its precision message (test_update_item.py, imprecise).
        if (our_text.startswith("Number overflow.")
                and their_text == "DynamoDB only supports precision up to 38 digits"):
            their_page["message"] = our_text
        # It names AttributeUpdates value types by their long names, the service by the wire names
        # (test_legacy_parameters.py).
        for long_name, wire in (("STRING", "S"), ("NUMBER", "N"), ("BINARY", "B"), ("BOOLEAN", "BOOL"),
                                ("LIST", "L"), ("MAP", "M")):
            if their_text.endswith("is not supported for the type " + long_name) and our_text.endswith(
                    "is not supported for the type " + wire):
                their_page["message"] = our_text
        # It writes a BETWEEN bound's number as sent and a binary as a Java object; dynamod writes
        # the number as stored and the binary in base64 (the service's rendering is not established).
        if "The BETWEEN operator" in our_text and "The BETWEEN operator" in their_text:
            our_page["message"] = our_text.split(" lower bound operand:")[0]
            their_page["message"] = their_text.split(" lower bound operand:")[0]
    if operation in ("update_item state", "transact_write_items state"):
        # An update that only removes creates the missing item with its key alone (test_update_item.py,
        # test_transact_write.py).
        updates = ([request] if operation == "update_item state" else
                   [a.get("Update") for a in request["TransactItems"]])
        for i, update in enumerate(updates):
            if (update and ours["Items"][i] is None
                    and reference["Items"][i] == canonical_numbers(update["Key"])):
                reference["Items"][i] = None
    items = list(before) + list(after)
    halves = [index.keys for index in shape.indexes if not index.local and len(index.keys) == 2]
    if any(item and (keys[0] in item) != (keys[1] in item) for item in items for keys in halves):
        # It bills a write to a GSI for an item that holds only one of its two key attributes
        # (test_metering_rules.py, half-key); in a batch, whatever the other items hold.
        for page in pages(ours) + pages(reference):
            page.pop("ConsumedCapacity", None)
    if (operation == "query" and isinstance(ours, dict) and isinstance(reference, dict)
            and len(ours.get("Pages", [])) == len(reference.get("Pages", [])) + 1
            and ours["Pages"][-1].get("ScannedCount") == 0):
        # The same on an index (test_query.py, end_of_range), where the pages were put together.
        ours["Pages"].pop()
    if operation == "query" and isinstance(ours, list) and isinstance(reference, list):
        # It looks ahead at the end of a sort-key range, so a page that ends there has no
        # LastEvaluatedKey, and no empty page follows (test_query.py, end_of_range).
        if (len(ours) == len(reference) + 1 and ours[-1].get("Count") == 0 and ours[-1].get("ScannedCount") == 0
                and "error" not in ours[-1]):
            ours.pop()
            ours[-1].pop("LastEvaluatedKey", None)
    if operation == "update_item" and isinstance(ours, list) and isinstance(reference, list):
        # An update that only removes creates the missing item with its key alone, and returns it
        # (test_update_item.py).
        for our_page, their_page in zip(ours, reference):
            attributes = their_page.get("Attributes")
            if "Attributes" not in our_page and attributes and canonical_numbers(attributes) == canonical_numbers(
                    request["Key"]):
                their_page.pop("Attributes")
        # UPDATED_OLD and UPDATED_NEW of a nested path return the whole top-level attribute, where
        # the service returns the touched paths (test_update_item.py, test_return_values_nested).
        nested = re.search(r"[.\[]", re.sub(r"\b(?:if_not_exists|list_append|size)\(.*?\)|:\w+", "",
                                            request.get("UpdateExpression", "")))
        if nested and request.get("ReturnValues") in ("UPDATED_OLD", "UPDATED_NEW"):
            for our_page, their_page in zip(ours, reference):
                if "error" not in our_page and "error" not in their_page:
                    our_page.pop("Attributes", None)
                    their_page.pop("Attributes", None)
    if operation.startswith("transact_"):
        for page in pages(ours):
            # The service's transaction entries also give Read/WriteCapacityUnits
            # (/work/notes/errors-batch-transact.md); its do not.
            for capacity in page.get("ConsumedCapacity", []):
                arms = [capacity, capacity.get("Table", {})]
                for family in ("GlobalSecondaryIndexes", "LocalSecondaryIndexes"):
                    arms += capacity.get(family, {}).values()
                for arm in arms:
                    arm.pop("ReadCapacityUnits", None)
                    arm.pop("WriteCapacityUnits", None)
    if operation in ("batch_write_item", "transact_write_items"):
        actions = (request["RequestItems"][shape.table] if operation == "batch_write_item"
                   else request["TransactItems"])
        deletes_missing = any(("DeleteRequest" in a or "Delete" in a) and item is None
                              for a, item in zip(actions, before))
        if deletes_missing or (operation == "transact_write_items" and len(actions) > 1):
            # It bills a missing item's delete 2 in a batch and 1 in a transaction, and rounds a
            # transaction's items of one table together (test_metering_rules.py, write.batch and
            # write.transact rules).
            for page in pages(ours) + pages(reference):
                page.pop("ConsumedCapacity", None)
    both_lists = isinstance(ours, list) and isinstance(reference, list)
    for our_page, their_page in zip(ours if both_lists else [], reference if both_lists else []):
        # It ends a ConditionalCheckFailed reason's Message with a full stop on some paths
        # (/work/notes/errors-batch-transact.md; the service's has none).
        for reason in their_page.get("reasons") or []:
            if reason.get("Message") == "The conditional request failed.":
                reason["Message"] = "The conditional request failed"
    if operation == "transact_write_items" and both_lists and ours[-1].get("reasons") and reference[-1].get("reasons"):
        # The service names only the first action that fails validation, the others None; it
        # evaluates every action (/work/notes/errors-batch-transact.md; test_transact_write.py).
        mine, theirs = ours[-1]["reasons"], reference[-1]["reasons"]
        named = [i for i, r in enumerate(mine) if r.get("Code") != "None"]
        if (len(named) == 1 and mine[named[0]].get("Code") == "ValidationError" and len(theirs) == len(mine)
                and theirs[named[0]] == mine[named[0]]):
            reference[-1] = ours[-1]
    if (operation == "transact_write_items" and isinstance(ours, list)
            and "Key attributes must be scalars" in str(ours[-1].get("message"))
            and any("ConditionCheck" in a for a in request["TransactItems"])):
        # It does not check a ConditionCheck's condition for paths into keys (test_key_paths.py).
        ours = reference
    if (operation == "transact_write_items" and isinstance(ours, list) and isinstance(reference, list)
            and ours[-1].get("message") == "Transaction request cannot include multiple operations on one item"
            and reference[-1].get("error")):
        # It evaluates an action (a failing condition, an update's missing operand) before it
        # refuses the same item twice (test_transact_write.py, same_item_twice).
        ours[-1] = reference[-1]
    if (operation == "transact_write_items" and isinstance(ours, list) and isinstance(reference, list)
            and ours[-1].get("message") == "Transaction request cannot include multiple operations on one item"
            and not reference[-1].get("error")
            and any("e" in value.get("N", "").lower()
                    for action in request["TransactItems"] for body in action.values()
                    for name, value in (body.get("Key") or body.get("Item") or {}).items() if name in shape.key)):
        # It takes a key number written with an exponent for a new item each time, even written
        # alike (test_transact_write.py, same_item_twice[exponent]).
        ours = reference
    if (operation == "update_item" and "AttributeUpdates" in request
            and isinstance(ours, list) and isinstance(reference, list)
            and any(rule in str(ours[-1].get("message")) for rule in (
                "Only DELETE action is allowed", "is not supported for the type", "Cannot update attribute"))):
        # It validates and evaluates Expected before AttributeUpdates' own rules, and checks those
        # as it applies each action (test_legacy_parameters.py, checked_before_expected,
        # rules_before_application).
        ours[-1] = reference[-1]
    if (operation == "transact_get_items" and isinstance(ours, list) and isinstance(reference, list)
            and len(request["TransactItems"]) > 1 and ours[-1] != reference[-1]
            and str(ours[-1].get("message")).startswith(("Invalid ProjectionExpression", "Value provided in"))):
        # It checks one Get after the other, where the service reads every projection first
        # (test_transact_get.py, projections_read_first).
        ours[-1] = reference[-1]
    if (operation == "scan" and "IndexName" in request and isinstance(ours, list)
            and "does not project one or more filter attributes" in str(ours[-1].get("message"))):
        # It lets a Scan filter on what the index does not project (test_gsi.py,
        # filter_on_unprojected_attribute_refused).
        ours = reference
    segment_texts = [str(answer[-1].get("message")) for answer in (ours, reference) if isinstance(answer, list)]
    if operation == "scan" and any("egment" in text for text in segment_texts):
        # Its own texts for Segment and TotalSegments, checked after the expressions (test_scan.py).
        ours = reference
    if operation == "transact_get_items":
        for our_page, their_page in zip(pages(ours), pages(reference)):
            # An item whose projection selects nothing is {"Item": {}} in its answer, {} in the
            # service's (test_transact_get.py).
            for i, (got, theirs) in enumerate(zip(our_page.get("Responses", []), their_page.get("Responses", []))):
                if got == {} and theirs == {"Item": {}}:
                    their_page["Responses"][i] = {}
    if operation == "batch_get_item":
        for our_page, their_page in zip(pages(ours), pages(reference)):
            # It bills a missing key 0 (test_metering_rules.py, read.batch-get.missing-key).
            if len(our_page.get("Responses", {}).get(shape.table, [])) < len(request["RequestItems"][shape.table]["Keys"]):
                our_page.pop("ConsumedCapacity", None)
                their_page.pop("ConsumedCapacity", None)
    if operation in ("transact_write_items", "execute_transaction") and isinstance(ours, list) and isinstance(
            reference, list):
        # An update's error found when applied is a ValidationError cancellation reason in the
        # service (/work/notes/errors-batch-transact.md; test_partiql.py,
        # test_transaction_update_error_when_applied), a ValidationException for the whole call
        # in it.
        got, theirs = ours[-1], reference[-1]
        named = [r for r in (got.get("reasons") or []) if r.get("Code") != "None"]
        mismatch = "One or more parameter values were invalid: Type mismatch for Index Key"
        if (got.get("error") == "TransactionCanceledException" and theirs.get("error") == "ValidationException"
                and len(named) == 1 and named[0].get("Code") == "ValidationError"
                and (named[0].get("Message") == theirs.get("message")
                     or str(named[0].get("Message")).startswith(mismatch)
                     and theirs.get("message") in (mismatch, "Invalid attribute value type"))):
            ours[-1] = theirs
    # It fetches from the table for any ProjectionExpression on an LSI, even of what the LSI holds,
    # and a Scan of an LSI bills what it fetches as index reads (test_consumed_capacity_indexes.py).
    index = shape.index(request.get("IndexName"))
    lsi_projection = index is not None and index.local and (
        "ProjectionExpression" in request or operation == "scan" and request.get("Select") == "ALL_ATTRIBUTES")
    for our_page, their_page in zip(pages(ours), pages(reference)):
        # It bills a Query or Scan page that reads nothing 0 units (test_metering_rules.py, EMPTY_QUERY).
        empty = our_page.get("ScannedCount") == 0 and their_page.get("ScannedCount") == 0
        if empty or lsi_projection:
            our_page.pop("ConsumedCapacity", None)
            their_page.pop("ConsumedCapacity", None)
    return ours, reference
