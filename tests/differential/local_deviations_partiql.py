"""DynamoDB Local's recorded deviations in PartiQL (ExecuteStatement, BatchExecuteStatement,
ExecuteTransaction), taken out of both answers like those of local_deviations.py. Each has a
test marked dynamodb_local_deviation in tests/integration/test_partiql.py."""
import re

ENVELOPE = "Statement wasn't well formed, can't be processed: "
TRANSACTION_PREFIX = re.compile(r"^Validation failed in TransactStatements\[\d+\]: ")
INDEX_SELECT = re.compile(r'^\s*SELECT\s.*?\sFROM\s+("[^"]*"|\w+)\s*\.', re.IGNORECASE | re.DOTALL)
BATCH_SELECT_KEY = "Select statements within BatchExecuteStatement must specify the primary key in the where clause."
KEY_PATH = "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: "
INDEX_KEY_MISMATCH = "One or more parameter values were invalid: Type mismatch for Index Key"
BETWEEN_BOUNDS = re.compile(r"AttributeValue: \{[^}]*\}")
NUMBER_TEXTS = {
    # Its texts of the number errors, without the place " under root..." (test_number_errors).
    "Number overflow. Attempting to store a number with magnitude larger than supported range": None,
    "Number underflow. Attempting to store a number with magnitude smaller than supported range": None,
    "DynamoDB only supports precision up to 38 digits":
        "Attempting to store more than 38 significant digits in a Number",
}


def same_meaning(ours, theirs):
    """Whether its message `theirs` is a recorded deviation from ours."""
    if ours.startswith(ENVELOPE) and theirs.startswith(ENVELOPE):
        # It echoes the statement after the envelope, not the parser's detail (test_malformed_statement_detail).
        return True
    if theirs == "Cannot do operations on a non-existent table":
        return ours == "Requested resource not found"  # test_missing_table
    if theirs.startswith("The table does not have the specified index: "):
        return ours == "The table does not have the specified index"  # test_select_unknown_index
    if theirs == "Only single item select is supported":
        return ours == BATCH_SELECT_KEY  # test_batch_member_error_messages
    if theirs == "Consistent reads are not supported on global secondary indexes":
        return ours == "Strongly consistent read is not supported on Global Secondary Indexes"  # test_select_gsi_consistent_read
    if theirs in NUMBER_TEXTS:
        return ours.split(" under root")[0] == (NUMBER_TEXTS[theirs] or theirs)
    if theirs == "A value provided cannot be converted into a number":
        return ours.startswith("The parameter cannot be converted to a numeric value")  # test_number_errors
    if theirs in (INDEX_KEY_MISMATCH, "Invalid attribute value type"):
        # It cuts an index key's type mismatch short, or says "Invalid attribute value type" for a
        # set or document (test_gsi.py, test_lsi.py).
        return ours.startswith(INDEX_KEY_MISMATCH)
    if "The BETWEEN operator" in ours and "The BETWEEN operator" in theirs:
        # It writes a bound's number as sent and a binary as a Java object (local_deviations.py).
        return BETWEEN_BOUNDS.sub("", ours) == BETWEEN_BOUNDS.sub("", theirs)
    return False


def message_places(page):
    """The (holder, key) of every error message of one page of an answer, in order."""
    places = [(page, "message")] if page.get("message") else []
    for response in page.get("Responses") or []:
        if isinstance(response, dict) and "Error" in response:
            places.append((response["Error"], "Message"))
    for reason in page.get("reasons") or []:
        if reason.get("Message"):
            places.append((reason, "Message"))
    return places


def forgive_messages(our_page, their_page):
    for (mine, my_key), (theirs, their_key) in zip(message_places(our_page), message_places(their_page)):
        our_text, their_text = mine[my_key], theirs[their_key]
        prefix = TRANSACTION_PREFIX.match(our_text)
        if prefix and their_text.startswith(prefix.group(0)):
            our_text, their_text = our_text[prefix.end():], their_text[prefix.end():]
        if our_text != their_text and same_meaning(our_text, their_text):
            theirs[their_key] = mine[my_key]


def forgive_partiql(operation, request, ours, reference, answered=None):
    """The PartiQL deviations (see forgive_local); returns the two answers."""
    if (operation == "batch_execute_statement state" and isinstance(answered, list)
            and answered[-1].get("message") == "Provided list of item keys contains duplicates"):
        # It runs a batch it refuses for naming one item twice (test_batch_same_item_twice_writes_nothing).
        reference["Items"] = ours["Items"]
        return ours, reference
    if (operation == "execute_transaction" and isinstance(ours, list) and isinstance(reference, list)
            and ours[-1].get("message") == "Transaction request cannot include multiple operations on one item"
            and "error" not in reference[-1]
            and any("e" in p.get("N", "").lower() for s in request.get("TransactStatements") or []
                    for p in s.get("Parameters") or [] if isinstance(p, dict))):
        # It compares a parameter's number by its text, so 1000 and "1E3" pass as two items
        # (test_transaction_same_item_by_number_forms).
        return reference, reference
    if (operation == "execute_transaction" and isinstance(ours, list) and isinstance(reference, list)
            and ours[-1].get("message") == "Transaction request cannot include multiple operations on one item"
            and reference[-1].get("message") == "The document path provided in the update expression is invalid "
                                                "for update"):
        # It applies an update's path to the item before it refuses the same item twice
        # (test_transaction_same_item_before_evaluation).
        return reference, reference
    key_path = re.search(r"Key attributes must be scalars; .*Key: (\w+)$", str(ours[-1].get("message"))) \
        if operation == "execute_transaction" and isinstance(ours, list) and isinstance(reference, list) else None
    if key_path and any(s["Statement"].lstrip().upper().startswith("EXISTS")
                        and re.search(r"\b%s\s*[.\[]" % re.escape(key_path.group(1)), s["Statement"])
                        for s in request["TransactStatements"]):
        # It does not check an EXISTS's condition for paths into keys, and goes on to carry out the
        # transaction (test_transaction_exists_key_path).
        return reference, reference
    if (operation == "execute_statement" and isinstance(ours, list)
            and "does not project one or more filter attributes" in str(ours[-1].get("message"))):
        # It lets a SELECT filter on what an index does not project (test_select_index_unprojected_filter).
        return reference, reference
    both = list(zip(ours, reference)) if isinstance(ours, list) and isinstance(reference, list) else []
    every_page = [page for answer in (ours, reference)
                  for page in (answer if isinstance(answer, list) else [answer] + answer.get("Pages", []))]
    for page in every_page:
        # It never returns ConsumedCapacity for PartiQL (test_select_consumed_capacity,
        # test_batch_consumed_capacity, test_transaction_consumed_capacity).
        page.pop("ConsumedCapacity", None)
    for our_page, their_page in both:
        if their_page.get("error") == "DuplicateItem" and our_page.get("error") == "DuplicateItemException":
            # Its error type is DuplicateItem (test_insert_duplicate_key).
            their_page["error"] = our_page["error"]
        forgive_messages(our_page, their_page)
        members = request.get("Statements") or []
        for number, (our_response, their_response) in enumerate(zip(our_page.get("Responses") or [],
                                                                    their_page.get("Responses") or [])):
            if (number < len(members) and INDEX_SELECT.match(members[number]["Statement"])
                    and (our_response.get("Error") or {}).get("Message") == BATCH_SELECT_KEY
                    and "Error" not in their_response):
                # It reads the table's item for a member that names an index (test_batch_member_error_messages).
                their_page["Responses"][number] = our_response
                continue
            if (operation == "execute_transaction" and isinstance(their_response, dict)
                    and their_response.get("Item") == {} and "Item" not in our_response):
                # It answers {"Item": {}} for an item its select list finds nothing in
                # (test_transaction_select_finds_nothing).
                their_response.pop("Item")
            if (number < len(members) and members[number]["Statement"].lstrip().upper().startswith("SELECT")
                    and KEY_PATH in str((our_response.get("Error") or {}).get("Message"))
                    and "Error" not in their_response):
                # It does not check a batch SELECT's list for paths into keys
                # (test_batch_and_transaction_select_key_paths).
                their_page["Responses"][number] = our_response
                continue
            error = their_response.get("Error") if isinstance(their_response, dict) else None
            if error and "Item" in error and "Item" not in (our_response.get("Error") or {}):
                # It returns the item in a batch member's error (test_batch_member_return_values_on_ccf).
                error.pop("Item")
            if (error and error.get("Code") == "ValidationError" and "TableName" in their_response
                    and "TableName" not in our_response and our_response.get("Error") == error):
                # It names the table of a member refused by validation
                # (test_batch_member_validation_has_no_table_name).
                their_response.pop("TableName")
    if operation == "execute_transaction" and both and ours[-1].get("reasons") and reference[-1].get("reasons"):
        # Its reason for an INSERT of a taken key is a ValidationError, not the INSERT's own
        # DuplicateItem (test_transaction_duplicate_insert_reason).
        statements = request.get("TransactStatements") or []
        for number, (mine, theirs) in enumerate(zip(ours[-1]["reasons"], reference[-1]["reasons"])):
            if (mine.get("Code"), theirs.get("Code")) == ("DuplicateItem", "ValidationError") and \
                    mine.get("Message") == theirs.get("Message"):
                theirs["Code"] = mine["Code"]
            if (number < len(statements) and statements[number]["Statement"].lstrip().upper().startswith("EXISTS")
                    and theirs.get("Code") == "ConditionalCheckFailed"):
                # A failed EXISTS's reason has no Item and a final period
                # (test_transaction_exists_return_values).
                mine.pop("Item", None)
                if theirs.get("Message") == mine.get("Message", "") + ".":
                    theirs["Message"] = mine["Message"]
        codes = ", ".join(reason.get("Code") for reason in reference[-1]["reasons"])
        if ours[-1].get("message", "").endswith("[%s]" % codes):
            reference[-1]["message"] = ours[-1]["message"]
    if (operation == "execute_transaction" and both and KEY_PATH in str(ours[-1].get("message"))
            and not reference[-1].get("error")
            and all(s["Statement"].lstrip().upper().startswith("SELECT") for s in request["TransactStatements"])):
        # Nor a transaction's (test_batch_and_transaction_select_key_paths).
        reference[-1] = ours[-1]
    if operation == "execute_transaction" and both and reference[-1].get("error") == "TransactionCanceledException":
        ours_text, theirs_text = str(ours[-1].get("message")), str(reference[-1].get("message"))
        prefix = TRANSACTION_PREFIX.match(ours_text)
        if (not reference[-1].get("reasons") and prefix and theirs_text.startswith("ValidationError ")
                and ours_text[prefix.end():] == theirs_text[len("ValidationError "):]):
            # It cancels a statement's validation error without reasons (test_transaction_write_without_key).
            reference[-1] = ours[-1]
    statements = [request.get("Statement", "")] + [s["Statement"] for s in request.get("Statements", [])]
    if (any(" DESC" in statement.upper() for statement in statements) and both
            and reference[-1].get("error") == "InternalFailure"):
        # It fails ORDER BY ... DESC with an internal error, a whole batch with it (test_select_order_by_desc).
        reference[:] = ours
    return ours, reference
