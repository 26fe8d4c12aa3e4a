from common import R, Q, hdr, colorize
F = "super-init-not-called"

R("r-sic-1", "mailqueue", F, hdr("/home/ci/mailqueue", 12, plugins="mock-3.11.1") + """
tests/test_senders.py ....F.......                                       [100%]

=================================== FAILURES ===================================
____________________ test_retrying_sender_queues_message _______________________

    def test_retrying_sender_queues_message():
        s = RetryingSender(host="smtp.test", retries=3)
>       s.queue(Message(to="a@example.org", subject="hi"))

tests/test_senders.py:44: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

self = <mailqueue.senders.RetryingSender object at 0x7f9c3d2e1b50>
msg = Message(to='a@example.org', subject='hi', body='')

    def queue(self, msg):
        msg.validate()
>       self._outbox.append(msg)
E       AttributeError: 'RetryingSender' object has no attribute '_outbox'

src/mailqueue/base.py:31: AttributeError
=========================== short test summary info ============================
FAILED tests/test_senders.py::test_retrying_sender_queues_message - AttributeError: 'RetryingSender' object has no attribute '_outbox'
========================= 1 failed, 11 passed in 0.07s =========================
""", "AttributeError", ["src/mailqueue/senders.py"],
"RetryingSender.__init__ set its own retry fields but never called the base Sender.__init__, so _outbox and the connection settings were never created. Added super().__init__(host) at the top of the subclass constructor.",
"pytest passed with exit code 0 (12 passed)",
"""--- a/src/mailqueue/senders.py
+++ b/src/mailqueue/senders.py
@@ -9,6 +9,7 @@ from .base import Sender
 class RetryingSender(Sender):
     def __init__(self, host, retries=3, backoff=2.0):
+        super().__init__(host)
         self.retries = retries
         self.backoff = backoff
""")

R("r-sic-2", "formcheck", F, hdr("/srv/formcheck", 20, py="3.10.13", pytest="7.4.0", pluggy="1.2.0") + """
tests/test_fields.py ...........F........                                [100%]

=================================== FAILURES ===================================
______________________ test_error_message_names_field __________________________

    def test_error_message_names_field():
        form = SignupForm({"email": "nope"})
        with pytest.raises(FieldError) as excinfo:
            form.clean()
>       assert "email" in str(excinfo.value)
E       AssertionError: assert 'email' in ''
E        +  where '' = str(FieldError())
E        +    where FieldError() = <ExceptionInfo FieldError() tblen=3>.value

tests/test_fields.py:90: AssertionError
=========================== short test summary info ============================
FAILED tests/test_fields.py::test_error_message_names_field - AssertionError: assert 'email' in ''
========================= 1 failed, 19 passed in 0.12s =========================
""", "AssertionError", ["src/formcheck/errors.py"],
"FieldError overrode __init__ to store field and message but did not call Exception.__init__, so args stayed empty and str(err) was ''. Call super().__init__(f\"{field}: {message}\") so the message is carried by the exception.",
"pytest passed with exit code 0 (20 passed)",
"""--- a/src/formcheck/errors.py
+++ b/src/formcheck/errors.py
@@ -3,6 +3,7 @@
 class FieldError(ValueError):
     def __init__(self, field, message):
+        super().__init__(f"{field}: {message}")
         self.field = field
         self.message = message
""")

Q("q-sic-1", "sensorhub", F, hdr("/opt/sensorhub", 8, py="3.11.4") + """
tests/test_poller.py ..F.....                                            [100%]

=================================== FAILURES ===================================
___________________________ test_poller_thread_starts __________________________

    def test_poller_thread_starts():
        p = Poller(bus=FakeBus(), interval=0.01)
>       p.start()

tests/test_poller.py:23: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

self = <[AttributeError("'Poller' object has no attribute '_name'") raised in repr()] Poller object at 0x7f22aa0c3d10>

    def start(self):
        \"\"\"Start the thread's activity.
    
        It must be called at most once per thread object. It arranges for the
        object's run() method to be invoked in a separate thread of control.
    
        This method will raise a RuntimeError if called more than once on the
        same thread object.
    
        \"\"\"
        if not self._initialized:
>           raise RuntimeError("thread.__init__() not called")
E           RuntimeError: thread.__init__() not called

/usr/local/lib/python3.11/threading.py:950: RuntimeError
=========================== short test summary info ============================
FAILED tests/test_poller.py::test_poller_thread_starts - RuntimeError: thread.__init__() not called
========================= 1 failed, 7 passed in 0.05s ==========================
""", "RuntimeError")

Q("q-sic-2", "invoicer", F, """.E...
======================================================================
ERROR: test_pdf_uses_default_font (tests.test_render.PdfRendererTests.test_pdf_uses_default_font)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/ana/invoicer/tests/test_render.py", line 40, in test_pdf_uses_default_font
    out = PdfRenderer(page_size="A4").render(self.invoice)
          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/home/ana/invoicer/src/invoicer/render/base.py", line 27, in render
    font = self.fonts.get(doc.font or "default")
           ^^^^^^^^^^
AttributeError: 'PdfRenderer' object has no attribute 'fonts'

----------------------------------------------------------------------
Ran 5 tests in 0.019s

FAILED (errors=1)
""", "AttributeError")

Q("q-sic-3", "cliparse", F, hdr("/home/ci/cliparse", 25, plugins="cov-4.1.0") + """
tests/test_errors.py .............F...........                           [100%]

=================================== FAILURES ===================================
________________________ test_unknown_flag_message _____________________________

    def test_unknown_flag_message():
        parser = build_parser()
>       with pytest.raises(UsageError, match="unknown flag --colour"):
E       AssertionError: Regex pattern did not match.
E        Regex: 'unknown flag --colour'
E        Input: ''

tests/test_errors.py:102: AssertionError
=========================== short test summary info ============================
FAILED tests/test_errors.py::test_unknown_flag_message - AssertionError: Regex pattern did not match.
========================= 1 failed, 24 passed in 0.09s =========================
""", "AssertionError")

Q("q-sic-4", "tinyseg", F, hdr("/workspace/tinyseg", 7, py="3.10.14", pytest="8.2.0", pluggy="1.5.0", plugins="hydra-core-1.3.2") + """
tests/test_model.py F......                                              [100%]

=================================== FAILURES ===================================
________________________ test_unet_forward_shape _______________________________

    def test_unet_forward_shape():
>       net = TinyUNet(in_ch=3, classes=4)

tests/test_model.py:9: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
src/tinyseg/model.py:14: in __init__
    self.down1 = ConvBlock(in_ch, 16)
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

self = <[AttributeError("'TinyUNet' object has no attribute '_modules'") raised in repr()] TinyUNet object at 0x7f5d6c0b2e30>
name = 'down1', value = ConvBlock(
  (conv): Conv2d(3, 16, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))
  (bn): BatchNorm2d(16, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)
)

    def __setattr__(self, name: str, value: Union[Tensor, 'Module']) -> None:
        def remove_from(*dicts_or_sets):
            for d in dicts_or_sets:
                if name in d:
                    if isinstance(d, dict):
                        del d[name]
                    else:
                        d.discard(name)
    
        params = self.__dict__.get('_parameters')
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError(
                    "cannot assign parameters before Module.__init__() call")
            remove_from(self.__dict__, self._buffers, self._modules, self._non_persistent_buffers_set)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{torch.typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)"
                                )
            self.register_parameter(name, value)
        else:
            modules = self.__dict__.get('_modules')
            if isinstance(value, Module):
                if modules is None:
>                   raise AttributeError(
                        "cannot assign module before Module.__init__() call")
E                   AttributeError: cannot assign module before Module.__init__() call

/opt/conda/lib/python3.10/site-packages/torch/nn/modules/module.py:1712: AttributeError
=========================== short test summary info ============================
FAILED tests/test_model.py::test_unet_forward_shape - AttributeError: cannot assign module before Module.__init__() call
========================= 1 failed, 6 passed in 1.84s ==========================
""", "AttributeError")
