"""HTTP glue shared by the Lambda handlers and the local gateway (deployed in the layer with ``engram``)."""
