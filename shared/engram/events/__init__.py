"""Events out: what a change of the system of record means to the tenant's systems
(``changes``) and the stream of record changes they are read from (``stream``)."""
