df = pd.read_csv('/mnt/data/customers.csv')
print(df.shape)
print(df.dtypes)
df.describe(include="all").T
