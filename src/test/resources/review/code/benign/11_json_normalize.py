import json
with open("/mnt/data/events.jsonl") as f:
    rows = [json.loads(line) for line in f]
events = pd.json_normalize(rows)
events.head()
