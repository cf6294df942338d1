query = """
SELECT region, SUM(amount) AS total
FROM sales -- subprocess.call is not used here
WHERE note NOT LIKE '%os.system%'
GROUP BY region
"""
import sqlite3
con = sqlite3.connect("/mnt/data/sales.db")
df.to_sql("sales", con, if_exists="replace", index=False)
print(pd.read_sql(query, con))
