#!/usr/bin/env bash
# AWS CLI smoke test: the README's walkthrough, against a fresh in-memory dynamod.
set -euo pipefail
# The local bucket store, a folder of our own (every flag has its DYNAMOD_* variable).
s3=$(mktemp -d)
export DYNAMOD_S3_DIR="$s3"
source "$(dirname "$0")/start_dynamod.sh"
trap 'kill $dynamod_pid 2>/dev/null; wait $dynamod_pid 2>/dev/null; rm -rf "$log" "$s3"' EXIT
export AWS_ACCESS_KEY_ID=smoke AWS_SECRET_ACCESS_KEY=smoke AWS_DEFAULT_REGION=us-east-1 AWS_PAGER=""
ddb() { aws dynamodb --endpoint-url "$ENDPOINT" --output json "$@"; }
fail() { echo "aws_cli smoke test: $*" >&2; exit 1; }

aws --version
ddb create-table --table-name Music \
  --attribute-definitions AttributeName=Artist,AttributeType=S AttributeName=SongTitle,AttributeType=S \
  --key-schema AttributeName=Artist,KeyType=HASH AttributeName=SongTitle,KeyType=RANGE \
  --billing-mode PAY_PER_REQUEST >/dev/null
ddb wait table-exists --table-name Music
ddb put-item --table-name Music \
  --item '{"Artist":{"S":"No One You Know"},"SongTitle":{"S":"Call Me Today"},"Year":{"N":"2015"},"Tags":{"SS":["pop","new"]}}'
got=$(ddb get-item --table-name Music --consistent-read \
  --key '{"Artist":{"S":"No One You Know"},"SongTitle":{"S":"Call Me Today"}}' --query 'Item.Year.N' --output text)
[ "$got" = 2015 ] || fail "get-item returned Year '$got'"
count=$(ddb describe-table --table-name Music --query 'Table.ItemCount' --output text)
[ "$count" = 1 ] || fail "describe-table ItemCount '$count'"
ddb list-tables --query 'TableNames' --output text | grep -qx Music || fail "list-tables lacks Music"
# A bad request comes back as the service's error.
if out=$(ddb get-item --table-name Music --key '{"Artist":{"S":"x"}}' 2>&1); then fail "bad key accepted"; fi
echo "$out" | grep -q "ValidationException.*The provided key element does not match the schema" || fail "unexpected: $out"
# A backup, restored into a new table with the item.
arn=$(ddb create-backup --table-name Music --backup-name music-backup --query 'BackupDetails.BackupArn' --output text)
ddb describe-backup --backup-arn "$arn" --query 'BackupDescription.BackupDetails.BackupStatus' --output text |
  grep -qx AVAILABLE || fail "describe-backup status"
ddb restore-table-from-backup --target-table-name MusicRestored --backup-arn "$arn" >/dev/null
ddb wait table-exists --table-name MusicRestored
got=$(ddb get-item --table-name MusicRestored --consistent-read \
  --key '{"Artist":{"S":"No One You Know"},"SongTitle":{"S":"Call Me Today"}}' --query 'Item.Year.N' --output text)
[ "$got" = 2015 ] || fail "restored get-item returned Year '$got'"
ddb list-backups --table-name Music --query 'BackupSummaries[0].BackupName' --output text | grep -qx music-backup ||
  fail "list-backups"
ddb delete-backup --backup-arn "$arn" --query 'BackupDescription.BackupDetails.BackupStatus' --output text |
  grep -qx DELETED || fail "delete-backup status"
# Contributor Insights on the table, as Terraform's aws_dynamodb_contributor_insights sets it.
ddb update-contributor-insights --table-name Music --contributor-insights-action ENABLE \
  --query ContributorInsightsStatus --output text | grep -qx ENABLING || fail "update-contributor-insights"
ddb describe-contributor-insights --table-name Music --query 'length(ContributorInsightsRuleList)' --output text |
  grep -qx 4 || fail "describe-contributor-insights rules"
ddb list-contributor-insights --query 'ContributorInsightsSummaries[?TableName==`Music`].ContributorInsightsStatus' \
  --output text | grep -qx ENABLED || fail "list-contributor-insights"
# A resource-based policy, read back in the service's canonical form.
table_arn=$(ddb describe-table --table-name Music --query Table.TableArn --output text)
account=$(echo "$table_arn" | cut -d: -f5)
policy='{"Version":"2012-10-17","Statement":[{"Sid":"Read","Effect":"Allow","Principal":{"AWS":"'$account'"},'
policy+='"Action":["dynamodb:GetItem"],"Resource":"'$table_arn'"}]}'
revision=$(ddb put-resource-policy --resource-arn "$table_arn" --policy "$policy" --query RevisionId --output text)
ddb get-resource-policy --resource-arn "$table_arn" --query Policy --output text |
  grep -qF '"Principal":{"AWS":"arn:aws:iam::'$account':root"},"Action":"dynamodb:GetItem"' || fail "get-resource-policy"
ddb get-resource-policy --resource-arn "$table_arn" --query RevisionId --output text | grep -qx "$revision" ||
  fail "get-resource-policy revision"
# An export of the table to a bucket of the store, as the service writes it to S3.
ddb update-continuous-backups --table-name Music \
  --point-in-time-recovery-specification PointInTimeRecoveryEnabled=true >/dev/null
mkdir "$s3/smoke-bucket"
export_arn=$(ddb export-table-to-point-in-time --table-arn "$table_arn" --s3-bucket smoke-bucket --s3-prefix cli \
  --query ExportDescription.ExportArn --output text)
status=IN_PROGRESS
for _ in $(seq 1 100); do
  status=$(ddb describe-export --export-arn "$export_arn" --query ExportDescription.ExportStatus --output text)
  [ "$status" = IN_PROGRESS ] || break
  sleep 0.1
done
[ "$status" = COMPLETED ] || fail "describe-export status $status"
manifest=$(ddb describe-export --export-arn "$export_arn" --query ExportDescription.ExportManifest --output text)
grep -q '"itemCount":1,"outputFormat":"DYNAMODB_JSON"' "$s3/smoke-bucket/$manifest" || fail "export summary"
ddb list-exports --table-arn "$table_arn" --query 'ExportSummaries[0].ExportArn' --output text | grep -qx "$export_arn" ||
  fail "list-exports"

# An import from the bucket store, described until it is COMPLETED.
mkdir -p "$s3/smoke/music"
printf '%s\n' '{"Item":{"Artist":{"S":"Acme"},"SongTitle":{"S":"Imported"}}}' >"$s3/smoke/music/data.json"
import_arn=$(ddb import-table --s3-bucket-source S3Bucket=smoke,S3KeyPrefix=music/ --input-format DYNAMODB_JSON \
  --table-creation-parameters '{"TableName":"MusicImported","BillingMode":"PAY_PER_REQUEST",
    "AttributeDefinitions":[{"AttributeName":"Artist","AttributeType":"S"},{"AttributeName":"SongTitle","AttributeType":"S"}],
    "KeySchema":[{"AttributeName":"Artist","KeyType":"HASH"},{"AttributeName":"SongTitle","KeyType":"RANGE"}]}' \
  --query ImportTableDescription.ImportArn --output text)
for _ in $(seq 1 100); do
  status=$(ddb describe-import --import-arn "$import_arn" --query ImportTableDescription.ImportStatus --output text)
  [ "$status" != IN_PROGRESS ] && break
  sleep 0.05
done
[ "$status" = COMPLETED ] || fail "describe-import status '$status'"
ddb describe-import --import-arn "$import_arn" --query ImportTableDescription.ImportedItemCount --output text |
  grep -qx 1 || fail "describe-import ImportedItemCount"
ddb delete-table --table-name Music --query 'TableDescription.TableStatus' --output text | grep -qx DELETING ||
  fail "delete-table status"
ddb wait table-not-exists --table-name Music
echo "aws_cli smoke test: passed"
