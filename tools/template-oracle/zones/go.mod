module tocsin/tools/template-oracle/zones

go 1.22
