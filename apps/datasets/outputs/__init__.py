"""What a query result becomes for people: charts (ECharts option, PNG) and downloads (CSV, XLSX)."""
