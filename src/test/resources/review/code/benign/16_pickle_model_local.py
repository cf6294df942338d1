import pickle
with open("/mnt/data/model.pkl", "wb") as f:
    pickle.dump(model, f)
with open("/mnt/data/model.pkl", "rb") as f:
    restored = pickle.load(f)
print(type(restored).__name__)
