"""Execute: the derivations computed over committed figures (`tools`) and the guarded
text-to-SQL route (`text2sql`).
"""
