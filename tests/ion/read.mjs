// Reads Ion text with Amazon's ion-js and prints each top-level value as
// tagged JSON (type, annotations, value), one per line, so a test can compare
// what another implementation makes of dynamod's Ion with what it meant.
//   node read.mjs FILE        (FILE may be gzip)
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { IonTypes, makeReader } from "ion-js";

function value(reader) {
  const type = reader.type();
  const tagged = { type: type.name, annotations: reader.annotations(), field: reader.fieldName() };
  if (reader.isNull()) {
    tagged.value = null;
  } else if (type === IonTypes.STRUCT || type === IonTypes.LIST) {
    const members = [];
    reader.stepIn();
    for (let t = reader.next(); t !== null; t = reader.next()) {
      members.push(value(reader));
    }
    reader.stepOut();
    tagged.value = members;
  } else if (type === IonTypes.DECIMAL) {
    tagged.value = reader.decimalValue().toString();
  } else if (type === IonTypes.INT) {
    tagged.value = reader.bigIntValue().toString();
  } else if (type === IonTypes.BLOB) {
    tagged.value = Buffer.from(reader.uInt8ArrayValue()).toString("base64");
  } else if (type === IonTypes.BOOL) {
    tagged.value = reader.booleanValue();
  } else {
    tagged.value = reader.stringValue();
  }
  return tagged;
}

let bytes = readFileSync(process.argv[2]);
if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
const reader = makeReader(bytes.toString("utf8"));
for (let t = reader.next(); t !== null; t = reader.next()) console.log(JSON.stringify(value(reader)));
