#!/usr/bin/env python3
"""Writes a synthetic "orders" CSV for the upload sanitization benchmark.

    python3 generate_orders.py ROWS OUT.csv [--seed N]

Columns: order_id,customer_id,customer_ssn,email,amount,order_date,internal_notes,product

Deterministic: the same ROWS and seed always give the same bytes. Python 3 standard library only.
The values look like a real export: customer ids C-123456 (customers order more than once), SSNs
ddd-dd-dddd, e-mail addresses (about 2% empty), amounts with two decimals (a few refunds are
negative), ISO dates, short free-text notes (often empty, some with commas and so quoted, a few with
embedded double quotes) and product names (a few with commas, so quoted).
"""
import argparse
import csv
import datetime
import random
import sys

FIRST = ["james", "mary", "john", "patricia", "robert", "jennifer", "michael", "linda", "william", "elizabeth",
         "david", "barbara", "richard", "susan", "joseph", "jessica", "thomas", "sarah", "charles", "karen",
         "chris", "nancy", "daniel", "lisa", "matthew", "betty", "anthony", "margaret", "mark", "sandra",
         "ana", "lucas", "sofia", "mateo", "emma", "noah", "olivia", "liam", "mia", "ethan"]
LAST = ["smith", "johnson", "williams", "brown", "jones", "garcia", "miller", "davis", "rodriguez", "martinez",
        "hernandez", "lopez", "gonzalez", "wilson", "anderson", "thomas", "taylor", "moore", "jackson", "martin",
        "lee", "perez", "thompson", "white", "harris", "sanchez", "clark", "ramirez", "lewis", "robinson"]
DOMAINS = ["gmail.com", "yahoo.com", "outlook.com", "hotmail.com", "icloud.com", "proton.me", "example.org",
           "acme-corp.com", "fastmail.com", "mail.de"]
NOTES = ["", "", "", "", "", "", "gift wrap", "leave at door", "repeat customer", "priority shipping",
         "Called customer, left voicemail", "Address changed, see ticket", "Refund issued, item damaged",
         "VIP, handle with care", "Delivered late, apologised", "Asked for \"express\" delivery",
         "Duplicate order, cancelled one", "Paid by invoice, net 30", "fragile", "backorder"]
ADJ = ["Classic", "Premium", "Eco", "Ultra", "Compact", "Deluxe", "Smart", "Vintage", "Pro", "Mini"]
NOUN = ["Coffee Mug", "Desk Lamp", "Water Bottle", "Backpack", "Notebook", "Headphones", "Yoga Mat",
        "Phone Case", "Throw Pillow", "Wall Clock", "Bluetooth Speaker", "Chef Knife", "Tea Kettle",
        "Running Shoes", "Sunglasses"]
PRODUCTS = [f"{a} {n}" for a in ADJ for n in NOUN] + ["Cable, USB-C 2m", "Socks, 3-pack", "Batteries, AA 8-pack"]


def customers(rng, count):
    """A fixed pool of customers: (id, ssn, email)."""
    pool = []
    ids = rng.sample(range(100000, 1000000), count)
    for cid in ids:
        ssn = f"{rng.randint(100, 899):03d}-{rng.randint(1, 99):02d}-{rng.randint(1, 9999):04d}"
        if rng.random() < 0.02:
            email = ""
        else:
            sep = rng.choice([".", "_", ""])
            suffix = str(rng.randint(1, 999)) if rng.random() < 0.5 else ""
            email = f"{rng.choice(FIRST)}{sep}{rng.choice(LAST)}{suffix}@{rng.choice(DOMAINS)}"
        pool.append((f"C-{cid}", ssn, email))
    return pool


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows", type=int)
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=20261130)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    pool = customers(rng, min(max(args.rows // 5, 1), 800000))
    start = datetime.date(2024, 1, 1).toordinal()
    days = [datetime.date.fromordinal(start + d).isoformat() for d in range(730)]
    rand = rng.random
    choice = rng.choice
    with open(args.out, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["order_id", "customer_id", "customer_ssn", "email", "amount", "order_date",
                    "internal_notes", "product"])
        batch = []
        for i in range(args.rows):
            cid, ssn, email = choice(pool)
            cents = int(rand() * rand() * 50000) + 99
            if rand() < 0.01:
                cents = -cents
            batch.append((10000001 + i, cid, ssn, email, f"{cents / 100:.2f}", choice(days), choice(NOTES),
                          choice(PRODUCTS)))
            if len(batch) == 10000:
                w.writerows(batch)
                batch.clear()
        w.writerows(batch)
    return 0


if __name__ == "__main__":
    sys.exit(main())
